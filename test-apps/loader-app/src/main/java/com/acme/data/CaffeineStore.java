package com.acme.data;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Weigher;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link SampleCache}'s entries in a Caffeine cache, the bound a user would pick by hand: with
 * a maximum weight, a weigher of each sample's own bytes ({@code byte[]} lengths, buffers'
 * remaining bytes; a slice counts its logical bytes, not the row group it keeps reachable);
 * without one, unbounded. Loaded only when {@code --cache-impl=caffeine} asks for it: Caffeine is
 * an optional dependency of this app.
 */
final class CaffeineStore implements SampleCache.Store {

    private final Cache<Object, Object> cache;

    CaffeineStore(long maximumWeight) {
        Caffeine<Object, Object> b = Caffeine.newBuilder();
        if (maximumWeight > 0) {
            Weigher<Object, Object> bytes = (k, v) -> (int) Math.min(Integer.MAX_VALUE, SampleCache.bytesOf(v));
            b = b.maximumWeight(maximumWeight).weigher(bytes).executor(Runnable::run);
        }
        cache = b.build();
    }

    @Override
    public Object get(Object key) {
        return cache.getIfPresent(key);
    }

    @Override
    public Object put(Object key, Object value) {
        cache.put(key, value);
        return null;
    }

    @Override
    public Object remove(Object key) {
        return cache.asMap().remove(key);
    }

    @Override
    public List<Object> keys() {
        return new ArrayList<>(cache.asMap().keySet());
    }

    @Override
    public Iterable<Object> values() {
        return cache.asMap().values();
    }

    @Override
    public int size() {
        return cache.asMap().size();
    }
}
