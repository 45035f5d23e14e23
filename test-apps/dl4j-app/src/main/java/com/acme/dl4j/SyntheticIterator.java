package com.acme.dl4j;

import java.util.List;
import java.util.Random;
import org.nd4j.linalg.api.ndarray.INDArray;
import org.nd4j.linalg.dataset.DataSet;
import org.nd4j.linalg.dataset.api.DataSetPreProcessor;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.factory.Nd4j;
import org.nd4j.linalg.indexing.NDArrayIndex;

/**
 * A source of synthetic mini-batches, the same ones every epoch: batch {@code i} is drawn from a
 * random generator seeded with {@code seed + i}, its label the sign class of a fixed linear
 * function of the features, so a network can learn it. Building a batch takes work (the generator,
 * then ND4J arrays), which is what a cache saves. With {@code views}, a batch's features are a view
 * of rows of one large pool array (as a loader slicing a big read would give), not arrays of their
 * own.
 */
final class SyntheticIterator implements DataSetIterator {
    private static final long serialVersionUID = 1L;

    private final int batches;
    private final int batchSize;
    private final int features;
    private final long seed;
    private final INDArray pool;
    private final float[] poolData;
    private final int poolBatches;
    private int next;
    private long built;
    private transient DataSetPreProcessor preProcessor;

    SyntheticIterator(int batches, int batchSize, int features, long seed, int poolBatches) {
        this.batches = batches;
        this.batchSize = batchSize;
        this.features = features;
        this.seed = seed;
        this.poolBatches = poolBatches;
        this.poolData = poolBatches > 0 ? fill(seed, (long) poolBatches * batchSize * features) : null;
        this.pool = poolBatches > 0
                ? Nd4j.create(poolData, new long[] {(long) poolBatches * batchSize, features}, 'c') : null;
    }

    private static float[] fill(long seed, long n) {
        Random r = new Random(seed);
        float[] v = new float[Math.toIntExact(n)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) r.nextGaussian();
        }
        return v;
    }

    /** Returns how many batches were built from scratch (each {@code next()} builds one). */
    long built() {
        return built;
    }

    @Override
    public boolean hasNext() {
        return next < batches;
    }

    @Override
    public DataSet next() {
        int i = next++;
        built++;
        INDArray x;
        float[] values;
        int offset;
        if (pool != null) {
            long start = (long) (i % poolBatches) * batchSize;
            x = pool.get(NDArrayIndex.interval(start, start + batchSize), NDArrayIndex.all());
            values = poolData;
            offset = Math.toIntExact(start * features);
        } else {
            values = fill(seed + i, (long) batchSize * features);
            offset = 0;
            x = Nd4j.create(values, new long[] {batchSize, features}, 'c');
        }
        float[] y = new float[batchSize * 2];
        for (int row = 0; row < batchSize; row++) {
            double s = 0;
            for (int c = 0; c < Math.min(features, 8); c++) {
                s += values[offset + row * features + c] * (c % 2 == 0 ? 1 : -0.5);
            }
            y[row * 2 + (s > 0 ? 1 : 0)] = 1f;
        }
        DataSet ds = new DataSet(x, Nd4j.create(y, new long[] {batchSize, 2}, 'c'));
        if (preProcessor != null) {
            preProcessor.preProcess(ds);
        }
        return ds;
    }

    @Override
    public DataSet next(int num) {
        throw new UnsupportedOperationException("next(num)");
    }

    @Override
    public int inputColumns() {
        return features;
    }

    @Override
    public int totalOutcomes() {
        return 2;
    }

    @Override
    public boolean resetSupported() {
        return true;
    }

    @Override
    public boolean asyncSupported() {
        return true;
    }

    @Override
    public void reset() {
        next = 0;
    }

    @Override
    public int batch() {
        return batchSize;
    }

    @Override
    public void setPreProcessor(DataSetPreProcessor preProcessor) {
        this.preProcessor = preProcessor;
    }

    @Override
    public DataSetPreProcessor getPreProcessor() {
        return preProcessor;
    }

    @Override
    public List<String> getLabels() {
        return null;
    }
}
