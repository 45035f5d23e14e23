package com.acme.spark;

import java.lang.reflect.Method;
import java.util.Collections;
import java.util.Iterator;
import java.util.Locale;
import org.apache.spark.api.java.function.Function2;

/**
 * One partition's work: load {@code com.acme.data.SampleCache} through the task's context class loader
 * (Spark's executor loader, which holds the jars shipped with {@code spark.jars}), put the partition's
 * samples in a fresh cache, and return one line saying how many the cache kept, the checksum of every
 * sample offered (each is used whether or not the cache keeps it) and which loader defined the class.
 */
final class CacheTask implements Function2<Integer, Iterator<Integer>, Iterator<String>> {

    private static final long serialVersionUID = 1L;

    private final int samples;
    private final int sampleBytes;
    private final long paceMillis;

    CacheTask(int samples, int sampleBytes) {
        this(samples, sampleBytes, 0);
    }

    /** A task that sleeps {@code paceMillis} after each sample (a reader's latency). */
    CacheTask(int samples, int sampleBytes, long paceMillis) {
        this.samples = samples;
        this.sampleBytes = sampleBytes;
        this.paceMillis = paceMillis;
    }

    @Override
    public Iterator<String> call(Integer partition, Iterator<Integer> ignored) throws Exception {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        Class<?> cacheClass = Class.forName(SparkJob.CACHE_CLASS, true, tccl);
        Object cache = cacheClass.getConstructor().newInstance();
        Method put = cacheClass.getMethod("put", Object.class, Object.class);
        Method size = cacheClass.getMethod("size");
        long checksum = 0;
        for (int i = 0; i < samples; i++) {
            int id = partition * samples + i;
            byte[] sample = sample(id, sampleBytes);
            checksum += hash(id, sample);
            put.invoke(cache, id, sample);
            if (paceMillis > 0) {
                Thread.sleep(paceMillis);
            }
        }
        int kept = (Integer) size.invoke(cache);
        ClassLoader definer = cacheClass.getClassLoader();
        String line = String.format(Locale.ROOT, "partition=%d kept=%d offered=%d checksum=%016x loader=%s",
                partition, kept, samples, checksum, definer == null ? "bootstrap" : definer.getClass().getName());
        return Collections.singletonList(line).iterator();
    }

    /** Returns sample {@code id}: {@code bytes} bytes of a splitmix64 stream seeded by the id. */
    static byte[] sample(int id, int bytes) {
        byte[] b = new byte[bytes];
        long z = id * 0x9E3779B97F4A7C15L;
        for (int i = 0; i < bytes; i += 8) {
            z = mix(z + 0x9E3779B97F4A7C15L);
            for (int k = 0; k < 8 && i + k < bytes; k++) {
                b[i + k] = (byte) (z >>> (8 * k));
            }
        }
        return b;
    }

    /** Returns a content hash of a sample mixed with its id. */
    static long hash(int id, byte[] sample) {
        long h = 0x9E3779B97F4A7C15L ^ id;
        for (int i = 0; i < sample.length; i += 64) {
            h = mix(h ^ sample[i]);
        }
        return mix(h ^ sample.length);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
