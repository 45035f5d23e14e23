package org.flodl.budget.benchmarks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loader that keeps samples in a JDK map field, as hand-written datasets do: {@link
 * CacheAdmitBenchmark}'s call site weaves the {@code Map.put} and {@code Map.remove} calls made in
 * this class ({@code in = BenchLoader}), not the map.
 */
public final class BenchLoader {
  /** The call site the call-site variant uses. */
  static final String SITES =
      "site.calls.kind = cache-admit\n"
          + "site.calls.in = org.flodl.budget.benchmarks.BenchLoader\n"
          + "site.calls.method = java.util.Map#put(java.lang.Object,java.lang.Object)\n"
          + "site.calls.value = 1\n"
          + "site.calls.release = java.util.Map#remove(java.lang.Object)\n";

  private final Map<Object, Object> rows = new ConcurrentHashMap<>();

  /** Keeps {@code row} under {@code key}. */
  public Object keep(Object key, Object row) {
    return rows.put(key, row);
  }

  /** Drops the row under {@code key}; returns it. */
  public Object drop(Object key) {
    return rows.remove(key);
  }
}
