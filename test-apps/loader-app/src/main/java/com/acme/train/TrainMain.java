package com.acme.train;

import com.acme.data.Batch;
import com.acme.data.PrefetchingLoader;
import com.acme.data.RowGroupSource;
import com.acme.data.SampleCache;
import com.acme.data.SampleSource;
import com.acme.data.Samples;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A training run over a synthetic row-group dataset: per epoch a shuffled order, a
 * {@link PrefetchingLoader} reading through an unbounded {@link SampleCache}, and a CPU-bound step per
 * batch. It prints one line per epoch and a final {@code TRAINING COMPLETE} line whose checksum
 * depends only on the samples delivered (not on order, caching, depth or sample kind), and checks that
 * every sample was delivered exactly once per epoch. Options: {@code --key=value}, see {@link Options}.
 */
public final class TrainMain {

    private TrainMain() {
    }

    /** Runs the training; exit status 2 on a bad option, 3 when delivery was not exactly once. */
    public static void main(String[] args) {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("loader-app: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(o.describe());
        RowGroupSource storage = new RowGroupSource(o.samples, o.sampleBytes, o.rowGroupBytes, o.seed,
                o.sampleKind, o.directRowGroups, o.openRowGroups);
        SampleCache cache;
        try {
            cache = SampleCache.of(o.cacheImpl, o.cacheWeight);
        } catch (IllegalArgumentException e) {
            System.err.println("loader-app: " + e.getMessage());
            System.exit(2);
            return;
        }
        SampleSource source = o.cache ? new CacheFirstSource(storage, cache, o.cacheEvery) : storage;
        long iters = o.computeIters >= 0 ? o.computeIters : ComputeStep.calibrate(o.computeMicros);
        ComputeStep step = new ComputeStep(iters);
        System.out.println("dataset rowGroups=" + storage.rowGroups() + " samplesPerRowGroup="
                + storage.samplesPerRowGroup() + " computeItersPerBatch=" + iters);
        System.out.flush();

        SplittableRandom random = new SplittableRandom(o.seed);
        long checksum = 0;
        long delivered = 0;
        long evicted = 0;
        boolean exactlyOnce = true;
        long t0 = System.nanoTime();
        for (int epoch = 1; epoch <= o.epochs; epoch++) {
            long start = System.nanoTime();
            long hitsBefore = cache.hits();
            long missesBefore = cache.misses();
            long putsBefore = cache.puts();
            long putNanosBefore = cache.putNanos();
            int[] order = order(o.shuffle, storage, random);
            BitSet seen = new BitSet(o.samples);
            boolean once = true;
            long epochDelivered = 0;
            int depth;
            try (PrefetchingLoader loader = new PrefetchingLoader(source, order, o.batchSize, o.depth, o.latencyMicros)) {
                depth = loader.depth();
                Batch batch;
                while ((batch = loader.next()) != null) {
                    for (int i = 0; i < batch.size(); i++) {
                        int id = batch.id(i);
                        if (seen.get(id)) {
                            once = false;
                        }
                        seen.set(id);
                        checksum += Samples.contentHash(id, batch.get(i));
                    }
                    epochDelivered += batch.size();
                    step.run(batch);
                }
            }
            once &= seen.cardinality() == o.samples && epochDelivered == o.samples;
            exactlyOnce &= once;
            delivered += epochDelivered;
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("epoch=" + epoch + " samples=" + o.samples + " delivered=" + epochDelivered
                    + " cacheHits=" + (cache.hits() - hitsBefore) + " cacheSize=" + cache.size()
                    + " depth=" + depth + " millis=" + millis
                    + " cacheMisses=" + (cache.misses() - missesBefore) + " cacheBytes=" + cache.sampleBytes()
                    + " rowGroupsOpened=" + storage.rowGroupsOpened() + " puts=" + (cache.puts() - putsBefore)
                    + " putNanos=" + (cache.putNanos() - putNanosBefore) + " exactly_once=" + once
                    + (o.reportMemory ? " " + MemoryReport.afterGc() : ""));
            System.out.flush();
            if (o.evictPerEpoch > 0 && epoch < o.epochs) {
                evicted += evict(cache, o.evictPerEpoch);
            }
        }
        long totalMillis = (System.nanoTime() - t0) / 1_000_000;
        if (o.evictAtEnd) {
            evicted += evict(cache, Integer.MAX_VALUE);
        }
        System.out.println("evicted=" + evicted + " cacheSize=" + cache.size() + " model=" + Long.toHexString(step.model())
                + " totalMillis=" + totalMillis + " peakRss=" + MemoryReport.peakRss());
        System.out.println("TRAINING COMPLETE samples_delivered=" + delivered + " checksum=" + Long.toHexString(checksum)
                + " exactly_once=" + exactlyOnce + " epochs=" + o.epochs);
        System.out.flush();
        if (o.linger) {
            linger();
        }
        if (!exactlyOnce) {
            System.exit(3);
        }
    }

    /**
     * Keeps the JVM up after training until standard input ends ({@code --linger=true}), so that a
     * monitoring agent's endpoint can be read once nothing changes any more.
     */
    private static void linger() {
        System.out.println("LINGERING until standard input ends");
        System.out.flush();
        try {
            while (System.in.read() >= 0) {
                // nothing: only the end of input matters
            }
        } catch (java.io.IOException e) {
            // standard input is gone: stop lingering
        }
    }

    /** Evicts up to {@code n} entries, lowest sample ids first; returns how many values came back. */
    private static long evict(SampleCache cache, int n) {
        List<Integer> keys = new ArrayList<>();
        for (Object k : cache.keys()) {
            keys.add((Integer) k);
        }
        Collections.sort(keys);
        long count = 0;
        for (int i = 0; i < keys.size() && i < n; i++) {
            if (cache.evict(keys.get(i)) != null) {
                count++;
            }
        }
        return count;
    }

    /**
     * Returns the epoch's sample order: {@code true} shuffles the row groups, then the samples within
     * each (what row-group readers do), {@code global} one permutation of all, {@code false} in order.
     */
    static int[] order(String shuffle, RowGroupSource storage, SplittableRandom random) {
        int n = storage.size();
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (shuffle.equals("global")) {
            permute(order, 0, n, random);
        } else if (shuffle.equals("true")) {
            int per = storage.samplesPerRowGroup();
            int groups = storage.rowGroups();
            int[] groupOrder = new int[groups];
            for (int g = 0; g < groups; g++) {
                groupOrder[g] = g;
            }
            permute(groupOrder, 0, groups, random);
            int at = 0;
            for (int g : groupOrder) {
                int from = at;
                for (int i = g * per; i < Math.min(n, (g + 1) * per); i++) {
                    order[at++] = i;
                }
                permute(order, from, at, random);
            }
        }
        return order;
    }

    private static void permute(int[] a, int from, int to, SplittableRandom random) {
        for (int i = to - 1; i > from; i--) {
            int j = from + random.nextInt(i - from + 1);
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
