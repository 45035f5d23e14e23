package com.acme.train;

import com.acme.data.SampleCache;
import com.acme.data.SampleSource;

/**
 * The training script's read path: ask the cache first, else read the sample from storage and put it
 * in the cache. Whatever the cache does with the put, the sample read is the one delivered.
 */
final class CacheFirstSource implements SampleSource {

    private final SampleSource storage;
    private final SampleCache cache;

    CacheFirstSource(SampleSource storage, SampleCache cache) {
        this.storage = storage;
        this.cache = cache;
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
        cache.put(key, sample);
        return sample;
    }
}
