package com.acme.libs;

import java.util.function.IntFunction;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;

/** A JCache (JSR-107) cache from the provider on the class path, storing by reference. */
public final class JCacheCache implements LibraryCache {
  private final Cache<Integer, byte[]> cache;

  public JCacheCache(IntFunction<byte[]> loader) {
    CacheManager manager = Caching.getCachingProvider().getCacheManager();
    cache =
        manager.createCache(
            "samples",
            new MutableConfiguration<Integer, byte[]>()
                .setTypes(Integer.class, byte[].class)
                .setStoreByValue(false));
  }

  @Override
  public byte[] getIfPresent(int key) {
    return cache.get(key);
  }

  @Override
  public void put(int key, byte[] sample) {
    cache.put(key, sample);
  }

  @Override
  public byte[] get(int key, IntFunction<byte[]> loader) {
    byte[] v = cache.get(key);
    if (v == null) {
      v = loader.apply(key);
      cache.putIfAbsent(key, v);
    }
    return v;
  }

  @Override
  public byte[] getLoaded(int key) {
    throw new UnsupportedOperationException("JCache loads through read-through configuration");
  }

  @Override
  public long size() {
    long n = 0;
    for (Cache.Entry<Integer, byte[]> ignored : cache) {
      n++;
    }
    return n;
  }
}
