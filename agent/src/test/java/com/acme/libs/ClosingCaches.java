package com.acme.libs;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.common.cache.CacheBuilder;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A training job whose cache owns what it holds, as jobs cache samples that hold native memory (an
 * {@code NDArray}, a pooled buffer): a removal listener closes each sample that leaves the cache,
 * and a closed sample cannot be trained on. {@code --lib=caffeine} (a removal listener, on the
 * cache's executor) or {@code guava} (on the writing thread); {@code --door=put} (getIfPresent,
 * then put) or {@code get} (get with a loader, the sample used after the get); {@code --bound=} the
 * cache's own maximum size (a million: unbounded in bytes); {@code --samples=}, {@code --bytes=},
 * {@code --epochs=}. At the end the job invalidates the cache, so every sample is closed.
 *
 * <p>Prints {@code HITS=} (epoch 2's), {@code USED_CLOSED=} (samples the job was handed closed),
 * {@code CLOSED_HITS=} (of those, hits: read from the cache, not written to it just before), {@code
 * TOLD=} (removals told during the epochs), {@code CAUSES=} (their causes), {@code THREADS=}
 * ({@code caller} and/or {@code other}: where the listener ran), {@code TWICE=} (samples told more
 * than once), {@code UNACCOUNTED=} (samples made that were neither told nor in the cache before the
 * invalidation), {@code CLOSED_ALL=} and {@code DONE}. It keeps no sample of its own once trained
 * on, as a training loop does not.
 */
public final class ClosingCaches {
  /** A sample that holds memory until it is closed. */
  static final class Sample {
    static final AtomicInteger MADE = new AtomicInteger();
    final int key;
    final int serial = MADE.getAndIncrement();
    volatile byte[] data;

    Sample(int key, int bytes) {
      this.key = key;
      this.data = new byte[bytes];
      this.data[0] = (byte) key;
    }

    void close() {
      data = null;
    }

    boolean closed() {
      return data == null;
    }
  }

  /** The cache as the job uses it, one library under it. */
  interface Door {
    Sample get(int key, IntFunction<Sample> load);

    Sample getIfPresent(int key);

    void put(int key, Sample s);

    long size();

    /** The cache's own bound now, or -1 where the library does not show it. */
    long maximum();

    void invalidateAll();

    void settle() throws InterruptedException;
  }

  static final Map<Integer, AtomicInteger> TOLD = new ConcurrentHashMap<>();
  static final Set<String> CAUSES = ConcurrentHashMap.newKeySet();
  static final Set<String> THREADS = ConcurrentHashMap.newKeySet();
  static final AtomicInteger CLOSED = new AtomicInteger();
  static volatile boolean ending;
  static Thread main;

  private ClosingCaches() {}

  /** The listener's body: the sample leaves the cache, so it is closed. */
  static void removed(Sample s, String cause) {
    if (!ending) {
      TOLD.computeIfAbsent(s.serial, k -> new AtomicInteger()).incrementAndGet();
      CAUSES.add(cause);
      THREADS.add(Thread.currentThread() == main ? "caller" : "other");
    }
    if (s != null && !s.closed()) {
      s.close();
      CLOSED.incrementAndGet();
    }
  }

  public static void main(String[] args) throws Exception {
    main = Thread.currentThread();
    String lib = "caffeine";
    String door = "put";
    long bound = 1_000_000;
    int samples = 600;
    int bytes = 1 << 20;
    int epochs = 2;
    boolean observeAtEnd = false;
    for (String a : args) {
      if (a.equals("--observe-at-end")) {
        observeAtEnd = true;
        continue;
      }
      String v = a.substring(a.indexOf('=') + 1);
      switch (a.substring(2, a.indexOf('='))) {
        case "lib" -> lib = v;
        case "door" -> door = v;
        case "bound" -> bound = Long.parseLong(v);
        case "samples" -> samples = Integer.parseInt(v);
        case "bytes" -> bytes = Integer.parseInt(v);
        case "epochs" -> epochs = Integer.parseInt(v);
        default -> throw new IllegalArgumentException(a);
      }
    }
    Door cache =
        switch (lib) {
          case "caffeine" -> CaffeineDoor.of(bound);
          case "guava" -> GuavaDoor.of(bound);
          default -> throw new IllegalArgumentException(lib);
        };
    int size = bytes;
    AtomicInteger made = Sample.MADE;
    IntFunction<Sample> load = k -> new Sample(k, size);
    int hits = 0;
    int usedClosed = 0;
    int closedHits = 0;
    long trained = 0;
    java.util.List<Integer> order = new java.util.ArrayList<>();
    for (int k = 0; k < samples; k++) {
      order.add(k);
    }
    for (int e = 0; e < epochs; e++) {
      hits = 0;
      java.util.Collections.shuffle(order, new java.util.Random(e)); // the same order every run
      for (int k : order) {
        Sample s;
        boolean hit;
        if (door.equals("get")) {
          int before = made.get();
          s = cache.get(k, load);
          hit = made.get() == before;
        } else {
          s = cache.getIfPresent(k);
          hit = s != null;
          if (!hit) {
            s = load.apply(k);
            cache.put(k, s);
          }
        }
        hits += hit ? 1 : 0;
        byte[] d = s.data; // trained on after the cache was asked: it must not be closed
        if (d == null) {
          usedClosed++;
          closedHits += hit ? 1 : 0;
        } else {
          trained += d[0];
        }
      }
    }
    cache.settle();
    Set<Integer> accounted = new TreeSet<>(TOLD.keySet());
    long inCache = 0;
    for (int k = 0; k < samples; k++) {
      Sample s = cache.getIfPresent(k);
      if (s != null) {
        inCache++;
        accounted.add(s.serial);
      }
    }
    int unaccounted = made.get() - accounted.size();
    if (observeAtEnd) {
      System.out.println("BOUND_STEERED=" + cache.maximum());
      javax.management.MBeanServer server =
          java.lang.management.ManagementFactory.getPlatformMBeanServer();
      server.setAttribute(
          new javax.management.ObjectName("org.flodl.budget:type=Agent"),
          new javax.management.Attribute("Mode", "observe"));
      System.out.println("BOUND_OBSERVED=" + cache.maximum());
    }
    int twice = 0;
    for (AtomicInteger n : TOLD.values()) {
      twice += n.get() > 1 ? 1 : 0;
    }
    ending = true;
    cache.invalidateAll();
    cache.settle();
    boolean closedAll = CLOSED.get() == made.get();
    System.out.println("HITS=" + hits);
    System.out.println("USED_CLOSED=" + usedClosed);
    System.out.println("CLOSED_HITS=" + closedHits);
    System.out.println("MADE=" + made.get());
    System.out.println("TOLD=" + TOLD.size());
    System.out.println("CAUSES=" + new TreeSet<>(CAUSES));
    System.out.println("THREADS=" + new TreeSet<>(THREADS));
    System.out.println("TWICE=" + twice);
    System.out.println("IN_CACHE=" + inCache);
    System.out.println("UNACCOUNTED=" + unaccounted);
    System.out.println("CLOSED_ALL=" + closedAll);
    System.out.println("TRAINED=" + trained);
    System.out.println("DONE");
  }

  private static final class CaffeineDoor implements Door {
    final com.github.benmanes.caffeine.cache.Cache<Integer, Sample> cache;

    CaffeineDoor(com.github.benmanes.caffeine.cache.Cache<Integer, Sample> cache) {
      this.cache = cache;
    }

    static Door of(long bound) {
      return new CaffeineDoor(
          Caffeine.newBuilder()
              .maximumSize(bound)
              .<Integer, Sample>removalListener((k, s, cause) -> removed(s, cause.name()))
              .build());
    }

    @Override
    public Sample get(int key, IntFunction<Sample> load) {
      return cache.get(key, k -> load.apply(k));
    }

    @Override
    public Sample getIfPresent(int key) {
      return cache.getIfPresent(key);
    }

    @Override
    public void put(int key, Sample s) {
      cache.put(key, s);
    }

    @Override
    public long size() {
      return cache.estimatedSize();
    }

    @Override
    public long maximum() {
      return cache.policy().eviction().orElseThrow().getMaximum();
    }

    @Override
    public void invalidateAll() {
      cache.invalidateAll();
    }

    @Override
    public void settle() throws InterruptedException {
      cache.cleanUp();
      // polled, not awaitQuiescence: a thread that awaits the pool's quiescence runs its tasks
      long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!ForkJoinPool.commonPool().isQuiescent() && System.nanoTime() < end) {
        Thread.sleep(10);
      }
    }
  }

  private static final class GuavaDoor implements Door {
    final com.google.common.cache.Cache<Integer, Sample> cache;

    GuavaDoor(com.google.common.cache.Cache<Integer, Sample> cache) {
      this.cache = cache;
    }

    static Door of(long bound) {
      return new GuavaDoor(
          CacheBuilder.newBuilder()
              .maximumSize(bound)
              .<Integer, Sample>removalListener(n -> removed(n.getValue(), n.getCause().name()))
              .build());
    }

    @Override
    public Sample get(int key, IntFunction<Sample> load) {
      try {
        return cache.get(key, () -> load.apply(key));
      } catch (java.util.concurrent.ExecutionException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public Sample getIfPresent(int key) {
      return cache.getIfPresent(key);
    }

    @Override
    public void put(int key, Sample s) {
      cache.put(key, s);
    }

    @Override
    public long size() {
      return cache.size();
    }

    /** Guava does not show its bound: its segments' shares, read as the agent reads them. */
    @Override
    public long maximum() {
      try {
        Object local = cache.asMap();
        java.lang.reflect.Field segments = local.getClass().getDeclaredField("segments");
        segments.setAccessible(true);
        long sum = 0;
        for (Object segment : (Object[]) segments.get(local)) {
          java.lang.reflect.Field max = segment.getClass().getDeclaredField("maxSegmentWeight");
          max.setAccessible(true);
          sum += max.getLong(segment);
        }
        return sum;
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void invalidateAll() {
      cache.invalidateAll();
    }

    @Override
    public void settle() {
      cache.cleanUp();
    }
  }
}
