package com.acme.djl;

import ai.djl.Device;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import ai.djl.nn.Activation;
import ai.djl.nn.SequentialBlock;
import ai.djl.nn.core.Linear;
import ai.djl.training.DefaultTrainingConfig;
import ai.djl.training.GradientCollector;
import ai.djl.training.Trainer;
import ai.djl.training.dataset.ArrayDataset;
import ai.djl.training.dataset.Batch;
import ai.djl.training.dataset.RandomAccessDataset;
import ai.djl.training.loss.Loss;
import ai.djl.training.optimizer.Optimizer;
import ai.djl.training.tracker.Tracker;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A small DJL regression model (three {@code Linear} blocks in a {@code SequentialBlock}) trained for a
 * few epochs on an {@code ArrayDataset} of synthetic data, the batches prefetched by a fixed thread
 * pool ({@code optPrefetchNumber}), on the PyTorch engine. Prints one line per epoch
 * ({@code epoch=N loss=… batches=… contents=… order=… millis=… cpu_millis=…}: the mean loss, the
 * batches, a checksum of the samples the epoch delivered (a sum: whatever their order) and of the
 * batches' order, wall and process CPU time) and {@code TRAINING COMPLETE}. Options ({@code --key=value}):
 * epochs, samples, batch-size, features, prefetch, threads (0: no executor), device (cpu|gpu), seed,
 * torch-threads (PyTorch's intra- and inter-op threads, unless set by system property; default 1), dataset
 * ({@code array}: an {@code ArrayDataset}; {@code rows}: {@link RowDataset}, with its own {@code DataIterable}
 * subtype whose {@code fetch} does not call super).
 */
public final class TrainDjl {

    private TrainDjl() {
    }

    /** Trains; exit status 2 on a bad option. */
    public static void main(String[] args) throws IOException, TranslateException {
        int epochs;
        int samples;
        int batchSize;
        int features;
        int prefetch;
        int threads;
        Device device;
        long seed;
        boolean rows;
        try {
            Map<String, String> o = Args.parse(args, Map.of("epochs", "5", "samples", "2048", "batch-size", "32",
                    "features", "16", "prefetch", "4", "threads", "2", "device", "cpu", "seed", "7", "torch-threads", "1", "dataset", "array"));
            epochs = Args.intOf(o, "epochs");
            samples = Args.intOf(o, "samples");
            batchSize = Args.intOf(o, "batch-size");
            features = Args.intOf(o, "features");
            prefetch = Args.intOf(o, "prefetch");
            threads = Args.intOf(o, "threads");
            device = Args.device(o.get("device"));
            seed = Args.intOf(o, "seed");
            rows = switch (o.get("dataset")) {
                case "array" -> false;
                case "rows" -> true;
                default -> throw new IllegalArgumentException("dataset must be array or rows, not " + o.get("dataset"));
            };
            Args.engineDefaults(Args.intOf(o, "torch-threads"));
        } catch (IllegalArgumentException e) {
            System.err.println("djl-app: " + e.getMessage());
            System.exit(2);
            return;
        }
        Engine.getInstance().setRandomSeed((int) seed);
        System.out.println("config engine=" + Engine.getInstance().getEngineName() + " version="
                + Engine.getInstance().getVersion() + " device=" + device + " epochs=" + epochs + " samples=" + samples
                + " batch-size=" + batchSize + " features=" + features + " prefetch=" + prefetch + " threads=" + threads);
        System.out.flush();

        ExecutorService executor = threads > 0 ? Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "djl-prefetch");
            t.setDaemon(true);
            return t;
        }) : null;
        try (NDManager manager = NDManager.newBaseManager(device);
             Model model = Model.newInstance("mlp", device)) {
            NDArray[] xy = SyntheticData.regression(manager, samples, features, seed);
            RandomAccessDataset dataset = rows
                    ? new RowDataset.Builder().arrays(xy[0], xy[1])
                            .setSampling(batchSize, true)
                            .optPrefetchNumber(prefetch)
                            .optDevice(device)
                            .build()
                    : new ArrayDataset.Builder()
                            .setData(xy[0])
                            .optLabels(xy[1])
                            .setSampling(batchSize, true)
                            .optPrefetchNumber(prefetch)
                            .optDevice(device)
                            .build();
            model.setBlock(new SequentialBlock()
                    .add(Linear.builder().setUnits(64).build())
                    .add(Activation::relu)
                    .add(Linear.builder().setUnits(32).build())
                    .add(Activation::relu)
                    .add(Linear.builder().setUnits(1).build()));
            DefaultTrainingConfig config = new DefaultTrainingConfig(Loss.l2Loss())
                    .optOptimizer(Optimizer.adam().optLearningRateTracker(Tracker.fixed(0.01f)).build())
                    .optDevices(new Device[] {device});
            if (executor != null) {
                config.optExecutorService(executor);
            }
            try (Trainer trainer = model.newTrainer(config)) {
                trainer.initialize(new Shape(batchSize, features));
                long total = 0;
                int emptyEpochs = 0;
                float firstLoss = Float.NaN;
                float lastLoss = Float.NaN;
                for (int epoch = 1; epoch <= epochs; epoch++) {
                    long start = System.nanoTime();
                    long cpuStart = processCpuNanos();
                    double lossSum = 0;
                    int batches = 0;
                    long contents = 0;
                    long order = 0;
                    for (Batch batch : trainer.iterateDataset(dataset)) {
                        long b = checksum(batch);
                        contents += b;
                        order = order * 31 + b;
                        try (GradientCollector collector = trainer.newGradientCollector()) {
                            NDList predictions = trainer.forward(batch.getData());
                            NDArray loss = trainer.getLoss().evaluate(batch.getLabels(), predictions);
                            collector.backward(loss);
                            lossSum += loss.getFloat();
                        }
                        trainer.step();
                        batch.close();
                        batches++;
                    }
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    long cpuMillis = cpuStart < 0 ? -1 : (processCpuNanos() - cpuStart) / 1_000_000;
                    total += batches;
                    float epochLoss = batches == 0 ? Float.NaN : (float) (lossSum / batches);
                    if (batches == 0) {
                        emptyEpochs++;
                    } else {
                        firstLoss = Float.isNaN(firstLoss) ? epochLoss : firstLoss;
                        lastLoss = epochLoss;
                    }
                    System.out.println("epoch=" + epoch + " loss=" + epochLoss
                            + " batches=" + batches + " contents=" + Long.toHexString(contents)
                            + " order=" + Long.toHexString(order)
                            + " millis=" + millis + " cpu_millis=" + cpuMillis);
                    System.out.flush();
                }
                System.out.println("TRAINING COMPLETE batches=" + total + " first_loss=" + firstLoss
                        + " last_loss=" + lastLoss + " loss_fell=" + (lastLoss < firstLoss) + " empty_epochs=" + emptyEpochs);
            }
        } finally {
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }

    /**
     * Returns a checksum of the samples a batch holds: per sample (a row of its data and of its
     * labels) a hash of every float's bits, summed over the rows, so that an epoch's sum says
     * which samples it delivered whatever their order and grouping.
     */
    private static long checksum(Batch batch) {
        long sum = 0;
        for (NDList list : new NDList[] {batch.getData(), batch.getLabels()}) {
            for (NDArray a : list) {
                float[] v = a.toFloatArray();
                long rows = Math.max(1, a.getShape().get(0));
                int width = (int) (v.length / rows);
                for (int r = 0; r < rows; r++) {
                    long h = 17;
                    for (int i = r * width; i < (r + 1) * width; i++) {
                        h = h * 1_000_003 + Float.floatToIntBits(v[i]);
                    }
                    sum += h * 0x9E3779B97F4A7C15L + list.indexOf(a);
                }
            }
        }
        return sum;
    }

    /** Returns this process's CPU time (all threads) in nanoseconds, or -1 where the JVM cannot say. */
    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }
}
