package com.acme.djl;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.training.dataset.ArrayDataset;
import ai.djl.training.dataset.DataIterable;
import ai.djl.training.dataset.RandomAccessDataset;
import ai.djl.translate.TranslateException;
import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Builds one epoch's {@code DataIterable} (through {@code getData}) for a dataset on
 * {@code Device.gpu(0)} by default, with an executor and a prefetch number, and never iterates it: the
 * constructor alone is the prefetch decision point, so this runs where no GPU exists. Prints, one
 * {@code key=value} a line, what the iterable received: whether it holds an executor, how many batches
 * its constructor queued (the prefetch number applied, the dataset having more batches than that),
 * the dataset's requested prefetch number and the device. Options: prefetch, threads, samples,
 * batch-size, features (float32 columns; a batch is batch-size × (features + 1) × 4 bytes), device.
 */
public final class ConstructIterable {

    private ConstructIterable() {
    }

    /** Builds the iterable and prints what it holds; exit status 2 on a bad option. */
    public static void main(String[] args) throws IOException, TranslateException, ReflectiveOperationException,
            InterruptedException {
        int prefetch;
        int threads;
        int samples;
        int batchSize;
        int features;
        Device device;
        try {
            Map<String, String> o = Args.parse(args, Map.of("prefetch", "4", "threads", "2", "samples", "1024",
                    "batch-size", "8", "device", "gpu", "features", "4"));
            prefetch = Args.intOf(o, "prefetch");
            threads = Args.intOf(o, "threads");
            samples = Args.intOf(o, "samples");
            batchSize = Args.intOf(o, "batch-size");
            features = Args.intOf(o, "features");
            device = Args.device(o.get("device"));
            Args.engineDefaults(1);
        } catch (IllegalArgumentException e) {
            System.err.println("djl-app: " + e.getMessage());
            System.exit(2);
            return;
        }
        ExecutorService executor = threads > 0 ? Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "djl-prefetch");
            t.setDaemon(true);
            return t;
        }) : null;
        try (NDManager manager = NDManager.newBaseManager(Device.cpu())) {
            NDArray[] xy = SyntheticData.regression(manager, samples, features, 1);
            ArrayDataset dataset = new ArrayDataset.Builder()
                    .setData(xy[0])
                    .optLabels(xy[1])
                    .setSampling(batchSize, false)
                    .optPrefetchNumber(prefetch)
                    .optDevice(device)
                    .build();
            Iterable<?> iterable = dataset.getData(manager, executor);
            System.out.println("iterable_class=" + iterable.getClass().getName());
            System.out.println("requested_prefetch=" + prefetch);
            System.out.println("requested_executor=" + (executor == null ? "null" : "present"));
            System.out.println("dataset_prefetch=" + field(RandomAccessDataset.class, dataset, "prefetchNumber"));
            if (iterable instanceof DataIterable) {
                Object held = field(DataIterable.class, iterable, "executor");
                Object queue = field(DataIterable.class, iterable, "queue");
                System.out.println("executor=" + (held == null ? "null" : "present"));
                System.out.println("executor_same=" + (held == executor));
                System.out.println("queued=" + (queue == null ? "null" : String.valueOf(((Collection<?>) queue).size())));
                System.out.println("device=" + field(DataIterable.class, iterable, "device"));
            }
            System.out.println("batches=" + (samples + batchSize - 1) / batchSize);
            System.out.println("CONSTRUCTED");
            System.out.flush();
            if (executor != null) {
                // The queued fetches read the dataset's arrays: let them end before the manager closes
                // them (closing first crashes libtorch in a prefetch thread).
                executor.shutdown();
                executor.awaitTermination(60, TimeUnit.SECONDS);
            }
        } finally {
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }

    private static Object field(Class<?> owner, Object target, String name) throws ReflectiveOperationException {
        Field f = owner.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(target);
    }
}
