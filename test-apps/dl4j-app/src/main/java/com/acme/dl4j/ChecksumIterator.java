package com.acme.dl4j;

import java.util.List;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.DataSetPreProcessor;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;

/**
 * Passes a DataSetIterator's batches through as they are, summing a checksum of each one's
 * samples (a hash of each row of its features and labels): an epoch's {@link #contents} says
 * which samples it trained on, whatever their order, and {@link #order} the batches' order.
 */
final class ChecksumIterator implements DataSetIterator {
    private static final long serialVersionUID = 1L;

    private final transient DataSetIterator in;
    private long contents;
    private long order;

    ChecksumIterator(DataSetIterator in) {
        this.in = in;
    }

    /** Returns the sum of the batches' checksums since the last {@link #restart}. */
    long contents() {
        return contents;
    }

    /** Returns the checksum of the batches' order since the last {@link #restart}. */
    long order() {
        return order;
    }

    /** Starts the sums of a new epoch. */
    void restart() {
        contents = 0;
        order = 0;
    }

    @Override
    public DataSet next(int num) {
        return add(in.next(num));
    }

    @Override
    public DataSet next() {
        return add(in.next());
    }

    private DataSet add(DataSet ds) {
        long sum = 0;
        org.nd4j.linalg.api.ndarray.INDArray[] parts = {ds.getFeatures(), ds.getLabels()};
        for (int p = 0; p < parts.length; p++) {
            // a contiguous copy, row after row (a DataSet may be a view of a larger pool)
            float[] v = parts[p].dup('c').reshape(parts[p].length()).toFloatVector();
            long rows = Math.max(1, parts[p].size(0));
            int width = (int) (v.length / rows);
            for (int r = 0; r < rows; r++) { // per sample: a hash of its row, summed
                long h = 17;
                for (int i = r * width; i < (r + 1) * width; i++) {
                    h = h * 1_000_003 + Float.floatToIntBits(v[i]);
                }
                sum += h * 0x9E3779B97F4A7C15L + p;
            }
        }
        synchronized (this) {
            contents += sum;
            order = order * 31 + sum;
        }
        return ds;
    }

    @Override
    public int inputColumns() {
        return in.inputColumns();
    }

    @Override
    public int totalOutcomes() {
        return in.totalOutcomes();
    }

    @Override
    public boolean resetSupported() {
        return in.resetSupported();
    }

    @Override
    public boolean asyncSupported() {
        return in.asyncSupported();
    }

    @Override
    public void reset() {
        in.reset();
    }

    @Override
    public int batch() {
        return in.batch();
    }

    @Override
    public void setPreProcessor(DataSetPreProcessor preProcessor) {
        in.setPreProcessor(preProcessor);
    }

    @Override
    public DataSetPreProcessor getPreProcessor() {
        return in.getPreProcessor();
    }

    @Override
    public List<String> getLabels() {
        return in.getLabels();
    }

    @Override
    public boolean hasNext() {
        return in.hasNext();
    }
}
