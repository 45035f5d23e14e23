package com.acme.doors;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import java.util.List;
import java.util.Map;

/** A loader that warms its cache in bulk ({@code getAll}) and reads it one key at a time. */
public final class BulkLoader {
  private final LoadingCache<Integer, byte[]> cache =
      Caffeine.newBuilder().build(k -> new byte[1024]);

  /** Loads every key at once: a door into the cache the caffeine preset does not cover. */
  public Map<Integer, byte[]> warm(List<Integer> keys) {
    return cache.getAll(keys);
  }

  /** Reads one sample: a door the preset covers. */
  public byte[] sample(int key) {
    return cache.get(key);
  }
}
