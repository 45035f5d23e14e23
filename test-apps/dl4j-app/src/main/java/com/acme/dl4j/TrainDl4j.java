package com.acme.dl4j;

import java.util.HashMap;
import java.util.Map;
import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.deeplearning4j.nn.conf.NeuralNetConfiguration;
import org.deeplearning4j.nn.conf.layers.DenseLayer;
import org.deeplearning4j.nn.conf.layers.OutputLayer;
import org.deeplearning4j.nn.multilayer.MultiLayerNetwork;
import org.deeplearning4j.optimize.api.BaseTrainingListener;
import org.deeplearning4j.nn.api.Model;
import org.nd4j.linalg.activations.Activation;
import org.nd4j.linalg.dataset.api.iterator.CachingDataSetIterator;
import org.nd4j.linalg.dataset.api.iterator.DataSetIterator;
import org.nd4j.linalg.dataset.api.iterator.cache.DataSetCache;
import org.nd4j.linalg.learning.config.Adam;
import org.nd4j.linalg.lossfunctions.LossFunctions;

/**
 * A small classifier ({@code MultiLayerNetwork}: one dense layer, a softmax output) trained with
 * {@code fit(DataSetIterator)} over a {@code CachingDataSetIterator} on ND4J's CPU backend, the
 * epoch's DataSets cached after the first (in ND4J's {@code InMemoryDataSetCache}, serialized to
 * bytes, or in {@link RetainingCache}, kept as they are). {@code fit} wraps the iterator in an
 * {@code AsyncDataSetIterator} that prefetches 2 batches. Prints one line per epoch ({@code
 * epoch=N loss=… batches=… built=… contents=… order=… millis=… cpu_millis=…}: the last
 * minibatch's score, the batches fitted, the batches the source built in that epoch (a DataSet the cache lacks is built again with
 * those before it: the source has no seek), the DataSets the cache served, checksums
 * of the DataSets fitted (their sum, and their order), wall and process CPU time) and {@code TRAINING COMPLETE}. Options ({@code
 * --key=value}): epochs, batches, batch-size, features, cache ({@code memory} · {@code retain} ·
 * {@code none}), views (batches of rows of a pool of that many batches; 0: arrays of their own),
 * seed.
 */
public final class TrainDl4j {

    private TrainDl4j() {
    }

    /** Trains; exit status 2 on a bad option. */
    public static void main(String[] args) {
        Map<String, String> o;
        int epochs;
        int batches;
        int batchSize;
        int features;
        int views;
        long seed;
        String cache;
        try {
            o = parse(args, Map.of("epochs", "3", "batches", "64", "batch-size", "32", "features", "64",
                    "cache", "memory", "views", "0", "seed", "7"));
            epochs = intOf(o, "epochs");
            batches = intOf(o, "batches");
            batchSize = intOf(o, "batch-size");
            features = intOf(o, "features");
            views = intOf(o, "views");
            seed = intOf(o, "seed");
            cache = o.get("cache");
            if (!cache.equals("memory") && !cache.equals("retain") && !cache.equals("none")) {
                throw new IllegalArgumentException("--cache must be memory, retain or none: " + cache);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("TrainDl4j: " + e.getMessage());
            System.exit(2);
            return;
        }
        MultiLayerConfiguration conf = new NeuralNetConfiguration.Builder()
                .seed(seed)
                .updater(new Adam(0.01))
                .list()
                .layer(new DenseLayer.Builder().nIn(features).nOut(16).activation(Activation.RELU).build())
                .layer(new OutputLayer.Builder(LossFunctions.LossFunction.MCXENT).nIn(16).nOut(2)
                        .activation(Activation.SOFTMAX).build())
                .build();
        MultiLayerNetwork net = new MultiLayerNetwork(conf);
        net.init();
        int[] fitted = new int[1];
        net.setListeners(new BaseTrainingListener() {
            @Override
            public void iterationDone(Model model, int iteration, int epoch) {
                fitted[0]++;
            }
        });

        SyntheticIterator source = new SyntheticIterator(batches, batchSize, features, seed, views);
        DataSetIterator data;
        CountingCache counting = null;
        switch (cache) {
            case "memory":
                counting = new CountingCache();
                data = new CachingDataSetIterator(source, counting, "train", true);
                break;
            case "retain":
                DataSetCache retaining = new RetainingCache();
                data = new CachingDataSetIterator(source, retaining, "train", true);
                break;
            default:
                data = source;
        }
        ChecksumIterator checked = new ChecksumIterator(data);
        double first = Double.NaN;
        double last = Double.NaN;
        for (int epoch = 1; epoch <= epochs; epoch++) {
            long builtBefore = source.built();
            long servedBefore = counting == null ? 0 : counting.served();
            fitted[0] = 0;
            checked.restart();
            long start = System.nanoTime();
            long cpuStart = processCpuNanos();
            net.fit(checked);
            long millis = (System.nanoTime() - start) / 1_000_000;
            long cpuMillis = cpuStart < 0 ? -1 : (processCpuNanos() - cpuStart) / 1_000_000;
            last = net.score();
            if (epoch == 1) {
                first = last;
            }
            System.out.println("epoch=" + epoch + " loss=" + last + " batches=" + fitted[0] + " built="
                    + (source.built() - builtBefore)
                    + " served=" + (counting == null ? 0 : counting.served() - servedBefore)
                    + " contents=" + Long.toHexString(checked.contents())
                    + " order=" + Long.toHexString(checked.order())
                    + " millis=" + millis + " cpu_millis=" + cpuMillis);
        }
        System.out.println("loss_fell=" + (last < first));
        System.out.println("TRAINING COMPLETE");
    }

    private static long processCpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean
                ? ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime() : -1;
    }

    private static Map<String, String> parse(String[] args, Map<String, String> defaults) {
        Map<String, String> v = new HashMap<>(defaults);
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 3) {
                throw new IllegalArgumentException("expected --key=value, got: " + arg);
            }
            String key = arg.substring(2, eq).trim();
            if (!defaults.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key + " (known: " + defaults.keySet() + ")");
            }
            v.put(key, arg.substring(eq + 1).trim());
        }
        return v;
    }

    private static int intOf(Map<String, String> v, String key) {
        try {
            int n = Integer.parseInt(v.get(key));
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a non-negative integer: " + v.get(key));
        }
    }
}
