package org.flodl.budget.benchmarks;

import java.util.concurrent.TimeUnit;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Puts of 1 KiB {@code byte[]}s into a JCache cache of Caffeine's or Ehcache's provider that stores
 * by value (the specification's default: the cache keeps a copy, and under the agent the charge is
 * held by the entry, its exit heard from the provider) or by reference (the charge held by the
 * object): {@link #put}, each over the value its key held (the older charge handed back at once),
 * and {@link #putThenRemove}, whose removal the agent hears on the removing thread (Caffeine's: at
 * its event dispatcher's publish methods; Ehcache's: a listener on the store). Run without the
 * agent and with it, side by side:
 *
 * <pre>
 * mvn -B -q -pl agent,benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar JCachePutBenchmark -f 1 -wi 10 -i 5
 * java -jar benchmarks/target/benchmarks.jar JCachePutBenchmark -f 1 -wi 10 -i 5 \
 *      -jvmArgsAppend -javaagent:agent/target/flodl-budget-agent.jar=presets=jcache
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class JCachePutBenchmark {
  private static final int KEYS = 1024;

  @Param({"caffeine", "ehcache"})
  public String provider;

  @Param({"value", "reference"})
  public String store;

  private CacheManager manager;
  private Cache<Integer, byte[]> cache;
  private final Integer[] keys = new Integer[KEYS];
  private final byte[][] values = new byte[KEYS][];
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    manager =
        Caching.getCachingProvider(
                provider.equals("ehcache")
                    ? "org.ehcache.jsr107.EhcacheCachingProvider"
                    : "com.github.benmanes.caffeine.jcache.spi.CaffeineCachingProvider")
            .getCacheManager();
    cache =
        manager.createCache(
            "bench-" + store,
            new MutableConfiguration<Integer, byte[]>()
                .setTypes(Integer.class, byte[].class)
                .setStoreByValue(store.equals("value")));
    for (int i = 0; i < KEYS; i++) {
      keys[i] = i;
      values[i] = new byte[1024];
    }
    for (int i = 0; i < KEYS; i++) {
      cache.put(keys[i], values[i]); // so that each put of {@link #put} replaces a value
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    manager.close();
  }

  /** Returns the cache after a put over the value its key held. */
  @Benchmark
  public Object put() {
    int k = next++ & (KEYS - 1);
    cache.put(keys[k], values[k]);
    return cache;
  }

  /** Returns whether the put's entry was there to remove. */
  @Benchmark
  public boolean putThenRemove() {
    int k = next++ & (KEYS - 1);
    cache.put(keys[k], values[k]);
    return cache.remove(keys[k]);
  }
}
