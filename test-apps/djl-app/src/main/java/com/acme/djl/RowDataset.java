package com.acme.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.DataIterable;
import ai.djl.training.dataset.RandomAccessDataset;
import ai.djl.training.dataset.Record;
import ai.djl.training.dataset.Sampler;
import ai.djl.translate.Batchifier;
import ai.djl.util.Progress;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;

/**
 * A dataset that is not an {@code ArrayDataset} (rows of two arrays, read one by one) and iterates
 * with its own {@code DataIterable} subtype, {@link RowIterable}, whose {@code fetch} stacks the rows
 * itself without calling super: the shape of a user's own iterable, which the agent must price too.
 */
final class RowDataset extends RandomAccessDataset {
    private final NDArray x;
    private final NDArray y;

    private RowDataset(Builder builder) {
        super(builder);
        this.x = builder.x;
        this.y = builder.y;
    }

    @Override
    public Record get(NDManager manager, long index) {
        return new Record(new NDList(x.get(manager, index)), new NDList(y.get(manager, index)));
    }

    @Override
    protected long availableSize() {
        return x.getShape().get(0);
    }

    @Override
    public void prepare(Progress progress) {
    }

    @Override
    public Iterable<Batch> getData(NDManager manager, Sampler sampler, ExecutorService executor) {
        return new RowIterable(this, manager, sampler, executor, prefetchNumber, device);
    }

    /** Builds a {@link RowDataset} of {@code x} rows and {@code y} labels. */
    static final class Builder extends RandomAccessDataset.BaseBuilder<Builder> {
        private NDArray x;
        private NDArray y;

        Builder arrays(NDArray data, NDArray labels) {
            this.x = data;
            this.y = labels;
            return this;
        }

        @Override
        protected Builder self() {
            return this;
        }

        RowDataset build() {
            return new RowDataset(this);
        }
    }

    /** The dataset's own iterable: {@code fetch} overridden, super's never called. */
    static final class RowIterable extends DataIterable {
        RowIterable(RowDataset dataset, NDManager manager, Sampler sampler, ExecutorService executor,
                int prefetch, ai.djl.Device device) {
            super(dataset, manager, sampler, Batchifier.STACK, Batchifier.STACK, null, null, executor, prefetch,
                    device);
        }

        @Override
        protected Batch fetch(List<Long> indices, int progress) throws IOException {
            NDManager batchManager = manager.newSubManager();
            NDList[] data = new NDList[indices.size()];
            NDList[] labels = new NDList[indices.size()];
            for (int i = 0; i < data.length; i++) {
                Record r = dataset.get(batchManager, indices.get(i));
                data[i] = r.getData();
                labels[i] = r.getLabels();
            }
            NDList batchData = Batchifier.STACK.batchify(data);
            NDList batchLabels = Batchifier.STACK.batchify(labels);
            if (device != null) {
                batchData = batchData.toDevice(device, false);
                batchLabels = batchLabels.toDevice(device, false);
            }
            return new Batch(batchManager, batchData, batchLabels, data.length, Batchifier.STACK,
                    Batchifier.STACK, progress, dataset.size(), indices);
        }
    }
}
