package com.acme.libs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.util.function.IntFunction;

/** An unbounded Caffeine cache, as Caffeine's README builds one. */
public final class CaffeineCache implements LibraryCache {
  private final Cache<Integer, byte[]> cache = Caffeine.newBuilder().build();
  private final LoadingCache<Integer, byte[]> loading;

  public CaffeineCache(IntFunction<byte[]> loader) {
    loading = Caffeine.newBuilder().build(k -> loader.apply(k));
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
    return cache.get(key, k -> loader.apply(k));
  }

  @Override
  public byte[] getLoaded(int key) {
    return loading.get(key);
  }

  @Override
  public long size() {
    return cache.estimatedSize() + loading.estimatedSize();
  }
}
