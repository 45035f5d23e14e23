package org.flodl.budget.benchmarks;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A cache interface and its implementation, as a library ships them: {@link CacheAdmitBenchmark}'s
 * interface site names {@code BenchStore#put} and {@code BenchStore#evict}, and the agent weaves
 * the implementation's bodies.
 */
public interface BenchStore {
  /** The sites the interface variant uses: on the interface, not the class. */
  String SITES =
      "site.iface.kind = cache-admit\n"
          + "site.iface.method = org.flodl.budget.benchmarks.BenchStore"
          + "#put(java.lang.Object,java.lang.Object)\n"
          + "site.iface.value = 1\n"
          + "site.iface.release = org.flodl.budget.benchmarks.BenchStore#evict(java.lang.Object)\n";

  /** Caches {@code value} under {@code key}; returns the value replaced, or null. */
  Object put(Object key, Object value);

  /** Removes the entry under {@code key}; returns its value, or null. */
  Object evict(Object key);

  /** The implementation: a plain ConcurrentHashMap without the agent. */
  final class Map implements BenchStore {
    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

    @Override
    public Object put(Object key, Object value) {
      return entries.put(key, value);
    }

    @Override
    public Object evict(Object key) {
      return entries.remove(key);
    }
  }
}
