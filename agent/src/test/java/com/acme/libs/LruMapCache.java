package com.acme.libs;

import java.util.function.IntFunction;
import org.apache.commons.collections4.map.LRUMap;

/** An LRUMap of Apache Commons Collections, sized past the run's samples (it never evicts). */
public final class LruMapCache implements LibraryCache {
  private final LRUMap<Integer, byte[]> map = new LRUMap<>(1000);

  public LruMapCache(IntFunction<byte[]> loader) {}

  @Override
  public byte[] getIfPresent(int key) {
    return map.get(key);
  }

  @Override
  public void put(int key, byte[] sample) {
    map.put(key, sample);
  }

  @Override
  public byte[] get(int key, IntFunction<byte[]> loader) {
    return map.computeIfAbsent(key, k -> loader.apply(k));
  }

  @Override
  public byte[] getLoaded(int key) {
    throw new UnsupportedOperationException("an LRUMap has no loader");
  }

  @Override
  public long size() {
    return map.size();
  }
}
