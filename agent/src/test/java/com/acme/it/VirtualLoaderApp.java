package com.acme.it;

import java.lang.management.ManagementFactory;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A data loader as JDK 21 made ordinary: one virtual thread per sample ({@code
 * Executors.newVirtualThreadPerTaskExecutor()}, looked up by reflection so that the class builds
 * for Java 17), each load looking its sample up in a {@link ConcurrentHashMap} sample cache and
 * putting it on a miss; at each epoch's end every sample is evicted, so each epoch admits again.
 * {@code --threads=virtual} (default) or {@code --threads=N} (a pool of N platform threads). Prints
 * per epoch {@code EPOCH e CACHED= HEAP_AFTER= EVICT_MS= AT=} (the heap used after a collection,
 * once the cache is emptied; the seconds since the start), then {@code LOADS= PUTS= KEPT= EVICTED=
 * CHECKSUM= SECONDS=}. Options {@code --key=value}: {@code samples} (per epoch, 200000), {@code
 * epochs} (3), {@code bytes} (a sample's size, 4096), {@code watch-put} (false; true: count the
 * threads inside the cache's {@code put} at once, and print the most as {@code MOST_IN_PUT=}, per
 * epoch, with the milliseconds into the epoch when it was reached, {@code MOST_AT_MS=}, and in all,
 * with the longest any one thread stayed inside it, {@code LONGEST_IN_PUT_US=}, per epoch; and at
 * the end {@code CARRIERS=}, the virtual threads' scheduler's parallelism), {@code capacity} (the
 * cache's initial capacity, 0: the map's default), {@code floor} (false; true or identity: the app
 * keeps a weak reference per sample itself, see {@link Floor}; run without the agent).
 */
public final class VirtualLoaderApp {
  /** The dataset's cache: the call site the sites file names is {@code load}'s {@code put}. */
  static final class SampleCache {
    private final ConcurrentHashMap<Integer, byte[]> samples;
    final LongAdder puts = new LongAdder();
    final LongAdder kept = new LongAdder();
    final LongAdder evicted = new LongAdder();

    /**
     * Whether {@link #load} counts the threads inside its {@code put} ({@code --watch-put=true}).
     */
    boolean watchPut;

    final AtomicInteger inPut = new AtomicInteger();
    final AtomicInteger mostInPut = new AtomicInteger();

    /** When {@link #mostInPut} was last raised ({@code System.nanoTime()}). */
    volatile long mostAt;

    /** The longest one thread stayed inside {@code put}, in nanoseconds. */
    final AtomicLong longestInPut = new AtomicLong();

    /** A cache of the map's default capacity ({@code capacity} 0), or of {@code capacity}. */
    SampleCache(int capacity) {
      samples = capacity > 0 ? new ConcurrentHashMap<>(capacity) : new ConcurrentHashMap<>();
    }

    /** With {@code --floor}: see {@link Floor}. */
    Floor floor;

    /** Returns sample {@code i}: from the cache, or read (made) and put there. */
    byte[] load(int i, int bytes) {
      byte[] s = samples.get(i);
      if (s != null) {
        return s;
      }
      s = read(i, bytes);
      puts.increment();
      if (watchPut) {
        long entered = System.nanoTime();
        int in = inPut.incrementAndGet();
        for (int most = mostInPut.get(); in > most; most = mostInPut.get()) {
          if (mostInPut.compareAndSet(most, in)) {
            mostAt = System.nanoTime();
            break;
          }
        }
        try {
          samples.put(i, s);
        } finally {
          inPut.decrementAndGet();
          long stayed = System.nanoTime() - entered;
          for (long l = longestInPut.get(); stayed > l; l = longestInPut.get()) {
            if (longestInPut.compareAndSet(l, stayed)) {
              break;
            }
          }
        }
      } else {
        samples.put(i, s);
      }
      if (floor != null) {
        floor.keep(i, s);
      }
      if (samples.get(i) == s) {
        kept.increment();
      }
      return s;
    }

    /** Evicts sample {@code i}; returns whether the cache held it. */
    boolean evict(int i) {
      byte[] s = samples.remove(i);
      if (s != null) {
        if (floor != null) {
          floor.drop(i, s);
        }
        evicted.increment();
        return true;
      }
      return false;
    }

    int size() {
      return samples.size();
    }
  }

  /**
   * With {@code --floor}, what the app keeps itself beside each sample it puts: a weak reference
   * with a queue in a {@link ConcurrentHashMap}, dropped when the sample is evicted, found by the
   * sample's index ({@code true}: in the app's own order, the least any table that learns of each
   * value's death costs) or by the sample's identity hash ({@code identity}: in the order an
   * identity table has, colliding hashes overwritten, so not exact). The benchmarks' floor for the
   * agent's holdings, run without the agent. A class of its own, so that the sites file's call
   * sites in {@link SampleCache} are the same with and without it.
   */
  static final class Floor {
    private final ConcurrentHashMap<Integer, WeakReference<byte[]>> refs =
        new ConcurrentHashMap<>();
    private final ReferenceQueue<byte[]> queue = new ReferenceQueue<>();
    private final boolean identity;

    Floor(boolean identity) {
      this.identity = identity;
    }

    void keep(int i, byte[] s) {
      refs.put(identity ? System.identityHashCode(s) : i, new WeakReference<>(s, queue));
    }

    void drop(int i, byte[] s) {
      refs.remove(identity ? System.identityHashCode(s) : i);
    }
  }

  static byte[] read(int i, int bytes) {
    byte[] s = new byte[bytes];
    for (int j = 0; j < bytes; j += 64) {
      s[j] = (byte) (i * 31 + j);
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      o.put(a.substring(2, eq), a.substring(eq + 1));
    }
    int samples = Integer.parseInt(o.getOrDefault("samples", "200000"));
    int epochs = Integer.parseInt(o.getOrDefault("epochs", "3"));
    int bytes = Integer.parseInt(o.getOrDefault("bytes", "4096"));
    String threads = o.getOrDefault("threads", "virtual");
    SampleCache cache = new SampleCache(Integer.parseInt(o.getOrDefault("capacity", "0")));
    cache.watchPut = Boolean.parseBoolean(o.getOrDefault("watch-put", "false"));
    String floor = o.getOrDefault("floor", "false");
    if (!floor.equals("false")) {
      cache.floor = new Floor(floor.equals("identity"));
    }
    LongAdder loads = new LongAdder();
    LongAdder checksum = new LongAdder();
    long start = System.nanoTime();
    int mostInPut = 0;
    for (int e = 0; e < epochs; e++) {
      long epochStart = System.nanoTime();
      ExecutorService pool = executor(threads);
      try {
        List<Future<?>> done = new ArrayList<>(samples);
        for (int i = 0; i < samples; i++) {
          int sample = i;
          done.add(
              pool.submit(
                  () -> {
                    byte[] s = cache.load(sample, bytes);
                    loads.increment();
                    checksum.add(s[0] + s[s.length / 2 & ~63]);
                  }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdown();
      }
      int cached = cache.size();
      long evictStart = System.nanoTime();
      for (int i = 0; i < samples; i++) {
        cache.evict(i);
      }
      long evictNanos = System.nanoTime() - evictStart;
      mostInPut = Math.max(mostInPut, cache.mostInPut.get());
      System.gc();
      long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.out.println(
          "EPOCH "
              + e
              + " CACHED="
              + cached
              + " HEAP_AFTER="
              + heapAfter
              + " EVICT_MS="
              + evictNanos / 1_000_000
              + (cache.watchPut
                  ? " MOST_IN_PUT="
                      + cache.mostInPut.getAndSet(0)
                      + " MOST_AT_MS="
                      + (cache.mostAt - epochStart) / 1_000_000
                      + " LONGEST_IN_PUT_US="
                      + cache.longestInPut.getAndSet(0) / 1_000
                  : "")
              + " AT="
              + String.format(java.util.Locale.ROOT, "%.2f", (System.nanoTime() - start) / 1e9));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.println(
        "LOADS="
            + loads.sum()
            + " PUTS="
            + cache.puts.sum()
            + " KEPT="
            + cache.kept.sum()
            + " EVICTED="
            + cache.evicted.sum()
            + " CHECKSUM="
            + checksum.sum()
            + (cache.watchPut ? " MOST_IN_PUT=" + mostInPut + " CARRIERS=" + carriers() : "")
            + " SECONDS="
            + String.format(java.util.Locale.ROOT, "%.2f", seconds));
  }

  /**
   * Returns how many platform threads carry the virtual threads at once: the parallelism of their
   * scheduler, {@code jdk.virtualThreadScheduler.parallelism} or else the processors the JVM sees.
   */
  static int carriers() {
    String p = System.getProperty("jdk.virtualThreadScheduler.parallelism");
    return p != null ? Integer.parseInt(p.trim()) : Runtime.getRuntime().availableProcessors();
  }

  /** Returns one virtual thread per task, or a pool of {@code threads} platform threads. */
  private static ExecutorService executor(String threads) throws Exception {
    if (threads.equals("virtual")) {
      try {
        return (ExecutorService)
            Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
      } catch (NoSuchMethodException e) {
        throw new IllegalStateException("--threads=virtual needs JDK 21 or later", e);
      }
    }
    return Executors.newFixedThreadPool(Integer.parseInt(threads));
  }
}
