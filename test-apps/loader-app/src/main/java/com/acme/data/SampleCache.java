package com.acme.data;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An unbounded cache of samples keyed by sample index, the kind a training script grows by hand: every
 * sample read is {@link #put put}, nothing is ever dropped unless {@link #evict evict} is called, so an
 * epoch of data larger than the heap ends in {@code OutOfMemoryError}. Safe for a loader's worker
 * thread and the training thread together.
 */
public final class SampleCache {

    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();
    private final AtomicLong hits = new AtomicLong();
    private final AtomicLong misses = new AtomicLong();

    /** Returns the value cached under {@code key}, or null; counts a hit or a miss. */
    public Object get(Object key) {
        Object value = entries.get(key);
        (value == null ? misses : hits).incrementAndGet();
        return value;
    }

    /** Caches {@code value} under {@code key} and returns the value it replaced, or null. */
    public Object put(Object key, Object value) {
        if (key == null || value == null) {
            throw new NullPointerException("SampleCache keys and values are not null");
        }
        return entries.put(key, value);
    }

    /** Removes the entry under {@code key} and returns its value, or null when there was none. */
    public Object evict(Object key) {
        return entries.remove(key);
    }

    /** Returns the keys cached now, in no particular order. */
    public List<Object> keys() {
        return new ArrayList<>(entries.keySet());
    }

    /** Returns the number of entries. */
    public int size() {
        return entries.size();
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
        for (Object v : entries.values()) {
            if (v instanceof byte[]) {
                total += ((byte[]) v).length;
            } else if (v instanceof ByteBuffer) {
                total += ((ByteBuffer) v).remaining();
            }
        }
        return total;
    }
}
