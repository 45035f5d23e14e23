package org.flodl.budget.benchmarks;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A sample cache as a training script writes it, the class {@link CacheAdmitBenchmark} names in its
 * sites file: {@code put(key, value)} retains argument 1, {@code evict(key)} returns the value it
 * lets go. Without the agent it is a plain {@code ConcurrentHashMap}; with it, both methods are
 * woven.
 */
public final class BenchSampleCache {
  /** The sites file that weaves this class: cache-admit at put, release at evict. */
  static final String SITES =
      "site.bench.kind = cache-admit\n"
          + "site.bench.method = org.flodl.budget.benchmarks.BenchSampleCache"
          + "#put(java.lang.Object,java.lang.Object)\n"
          + "site.bench.value = 1\n"
          + "site.bench.release = org.flodl.budget.benchmarks.BenchSampleCache#evict\n";

  private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

  /** Caches {@code value} under {@code key}; returns the value replaced, or null. */
  public Object put(Object key, Object value) {
    return entries.put(key, value);
  }

  /** Removes the entry under {@code key}; returns its value, or null. */
  public Object evict(Object key) {
    return entries.remove(key);
  }

  /** Returns the number of entries. */
  public int size() {
    return entries.size();
  }
}
