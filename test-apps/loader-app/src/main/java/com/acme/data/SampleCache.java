package com.acme.data;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cache of samples keyed by sample index, the kind a training script grows by hand: every sample
 * read is {@link #put put}. By default its entries are a {@code ConcurrentHashMap} and nothing is ever
 * dropped unless {@link #evict evict} is called, so an epoch of data larger than the heap ends in
 * {@code OutOfMemoryError}; {@code --cache-impl=caffeine} keeps them in a Caffeine cache instead,
 * unbounded or bounded by a byte weigher ({@code --cache-weight}). Safe for a loader's worker thread
 * and the training thread together. Counts hits, misses, and the time its puts take.
 */
public final class SampleCache {

    /** Where the entries live when they are not in the map (a Caffeine cache). */
    interface Store {
        Object get(Object key);

        Object put(Object key, Object value);

        Object remove(Object key);

        List<Object> keys();

        Iterable<Object> values();

        int size();
    }

    private final ConcurrentHashMap<Object, Object> entries;
    private final Store store;
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();
    private final AtomicLong puts = new AtomicLong();
    private final AtomicLong putNanos = new AtomicLong();

    /** An unbounded cache in a {@code ConcurrentHashMap}. */
    public SampleCache() {
        this.entries = new ConcurrentHashMap<>();
        this.store = null;
    }

    private SampleCache(Store store) {
        this.entries = null;
        this.store = store;
    }

    /**
     * Returns a cache of {@code impl}: {@code map} (the default's {@code ConcurrentHashMap}) or
     * {@code caffeine} (a Caffeine cache, bounded to {@code maximumWeight} sample bytes when that is
     * positive, else unbounded).
     */
    public static SampleCache of(String impl, long maximumWeight) {
        switch (impl) {
            case "map":
                if (maximumWeight > 0) {
                    throw new IllegalArgumentException("--cache-weight needs --cache-impl=caffeine");
                }
                return new SampleCache();
            case "caffeine":
                return new SampleCache(new CaffeineStore(maximumWeight));
            default:
                throw new IllegalArgumentException("--cache-impl must be map or caffeine: " + impl);
        }
    }

    /** Returns the value cached under {@code key}, or null; counts a hit or a miss. */
    public Object get(Object key) {
        Object value = store == null ? entries.get(key) : store.get(key);
        (value == null ? misses : hits).incrementAndGet();
        return value;
    }

    /**
     * Caches {@code value} under {@code key} and returns the value it replaced, or null (always null
     * in a Caffeine cache); counts the put and the time it took.
     */
    public Object put(Object key, Object value) {
        if (key == null || value == null) {
            throw new NullPointerException("SampleCache keys and values are not null");
        }
        long t0 = System.nanoTime();
        Object previous = store == null ? entries.put(key, value) : store.put(key, value);
        putNanos.addAndGet(System.nanoTime() - t0);
        puts.incrementAndGet();
        return previous;
    }

    /** Removes the entry under {@code key} and returns its value, or null when there was none. */
    public Object evict(Object key) {
        return store == null ? entries.remove(key) : store.remove(key);
    }

    /** Returns the keys cached now, in no particular order. */
    public List<Object> keys() {
        return store == null ? new ArrayList<>(entries.keySet()) : store.keys();
    }

    /** Returns the number of entries. */
    public int size() {
        return store == null ? entries.size() : store.size();
    }

    /** Returns the number of {@link #put} calls. */
    public long puts() {
        return puts.get();
    }

    /** Returns the nanoseconds spent in {@link #put} calls. */
    public long putNanos() {
        return putNanos.get();
    }

    /** Returns the number of {@link #get} calls that found a value. */
    public long hits() {
        return hits.get();
    }

    /** Returns the number of {@link #get} calls that found nothing. */
    public long misses() {
        return misses.get();
    }

    /**
     * Returns the sample bytes the entries expose ({@code byte[]} lengths, buffers' remaining bytes);
     * a slice counts its own bytes, not the row group it keeps reachable.
     */
    public long sampleBytes() {
        long total = 0;
        for (Object v : store == null ? entries.values() : store.values()) {
            total += bytesOf(v);
        }
        return total;
    }

    /** Returns a sample's own bytes: a {@code byte[]}'s length, a buffer's remaining bytes, else 0. */
    static long bytesOf(Object v) {
        if (v instanceof byte[]) {
            return ((byte[]) v).length;
        }
        return v instanceof ByteBuffer ? ((ByteBuffer) v).remaining() : 0;
    }
}
