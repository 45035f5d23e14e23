package com.acme.libs;

import java.util.function.IntFunction;
import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;

/** An Ehcache 3 on-heap cache, configured programmatically, with room for every sample. */
public final class Ehcache3Cache implements LibraryCache {
  private final Cache<Integer, byte[]> cache;

  public Ehcache3Cache(IntFunction<byte[]> loader) {
    CacheManager manager =
        CacheManagerBuilder.newCacheManagerBuilder()
            .withCache(
                "samples",
                CacheConfigurationBuilder.newCacheConfigurationBuilder(
                    Integer.class, byte[].class, ResourcePoolsBuilder.heap(1_000_000)))
            .build(true);
    cache = manager.getCache("samples", Integer.class, byte[].class);
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
    throw new UnsupportedOperationException("Ehcache loads through a CacheLoaderWriter");
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
