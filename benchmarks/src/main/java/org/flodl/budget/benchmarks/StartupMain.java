package org.flodl.budget.benchmarks;

/**
 * The smallest job that loads one woven class: creates a {@link BenchSampleCache}, puts and
 * evicts one sample, exits. {@code benchmarks/startup.sh} times it with and without the agent.
 */
public final class StartupMain {
  private StartupMain() {}

  /** Puts and evicts one 1 KiB sample; prints the cache size (0), so nothing is optimized away. */
  public static void main(String[] args) {
    BenchSampleCache cache = new BenchSampleCache();
    cache.put(1, new byte[1024]);
    cache.evict(1);
    System.out.println("size=" + cache.size());
  }
}
