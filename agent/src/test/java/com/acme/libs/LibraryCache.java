package com.acme.libs;

import java.util.function.IntFunction;

/**
 * What the training loop needs of a library cache, each call one of the library's own: the put
 * style ({@code getIfPresent}, then {@code put} on a miss) and the loading style ({@code get(key,
 * loader)}, or a loading cache's {@code get(key)}). Nothing here knows of the agent.
 */
public interface LibraryCache {
  /** Returns the cached sample, or null. */
  byte[] getIfPresent(int key);

  /** Caches the sample. */
  void put(int key, byte[] sample);

  /** Returns the sample, loading it on a miss with the library's loading call. */
  byte[] get(int key, IntFunction<byte[]> loader);

  /** Returns the sample from a cache built with its loader ({@code LoadingCache.get}). */
  byte[] getLoaded(int key);

  /** Returns how many samples the cache holds. */
  long size();

  /** Returns the cache of class {@code name}, its loading cache built with {@code loader}. */
  static LibraryCache of(String name, IntFunction<byte[]> loader) throws Exception {
    return (LibraryCache) Class.forName(name).getConstructor(IntFunction.class).newInstance(loader);
  }
}
