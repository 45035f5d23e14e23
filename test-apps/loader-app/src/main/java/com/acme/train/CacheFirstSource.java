package com.acme.train;

import com.acme.data.SampleCache;
import com.acme.data.SampleSource;

/**
 * The training script's read path: ask the cache first, else read the sample from storage and put it
 * in the cache (every sample, or only those whose id is a multiple of {@code cacheEvery}: a "hot set").
 * Whatever the cache does with the put, the sample read is the one delivered.
 */
final class CacheFirstSource implements SampleSource {

    private final SampleSource storage;
    private final SampleCache cache;
    private final int cacheEvery;

    CacheFirstSource(SampleSource storage, SampleCache cache, int cacheEvery) {
        this.storage = storage;
        this.cache = cache;
        this.cacheEvery = cacheEvery;
    }

    @Override
    public int size() {
        return storage.size();
    }

    @Override
    public Object read(int index) {
        Integer key = index;
        Object sample = cache.get(key);
        if (sample != null) {
            return sample;
        }
        sample = storage.read(index);
        if (index % cacheEvery == 0) {
            cache.put(key, sample);
        }
        return sample;
    }
}
