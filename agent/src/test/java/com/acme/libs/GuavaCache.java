package com.acme.libs;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import java.util.concurrent.ExecutionException;
import java.util.function.IntFunction;

/** An unbounded Guava cache, as Guava's CachesExplained builds one. */
public final class GuavaCache implements LibraryCache {
  private final Cache<Integer, byte[]> cache = CacheBuilder.newBuilder().build();
  private final LoadingCache<Integer, byte[]> loading;

  public GuavaCache(IntFunction<byte[]> loader) {
    loading =
        CacheBuilder.newBuilder()
            .build(
                new CacheLoader<Integer, byte[]>() {
                  @Override
                  public byte[] load(Integer key) {
                    return loader.apply(key);
                  }
                });
  }

  @Override
  public byte[] getIfPresent(int key) {
    return cache.getIfPresent(key);
  }

  @Override
  public void put(int key, byte[] sample) {
    cache.put(key, sample);
  }

  @Override
  public byte[] get(int key, IntFunction<byte[]> loader) {
    try {
      return cache.get(key, () -> loader.apply(key));
    } catch (ExecutionException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public byte[] getLoaded(int key) {
    return loading.getUnchecked(key);
  }

  @Override
  public long size() {
    return cache.size() + loading.size();
  }
}
