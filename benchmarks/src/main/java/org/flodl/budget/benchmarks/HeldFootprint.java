package org.flodl.budget.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * What the agent keeps per held value, and what letting them go by collection costs: admits and
 * evicts one value first (the agent's fixed start-up heap, its first decision's, is then in the
 * baseline), fills a {@link BenchSampleCache} (the benchmark's method site) with {@code N} values
 * of 16 bytes, reads the heap used after full collections, then drops the cache without evicting
 * (so every value is released when it is collected, through the agent's identity table) and waits
 * for the held bytes to reach 0. Run once without and once with the agent; the difference in heap
 * over {@code N} is the agent's bytes per held value. {@code benchmarks/held.sh} runs the pairs.
 *
 * <pre>
 * java -Xmx6g [-javaagent:agent/target/flodl-budget-agent.jar=sites=SITES,heap_max_usage=1] \
 *      -cp benchmarks/target/benchmarks.jar org.flodl.budget.benchmarks.HeldFootprint N [weak]
 * </pre>
 *
 * (SITES: {@link BenchSampleCache#SITES} in a file.) The values are collected by {@code
 * System.gc()}: a full collection, or, under {@code -XX:+ExplicitGCInvokesConcurrent}, G1's
 * concurrent cycle (what it starts on its own when the old generation fills). {@code weak} as the
 * second argument, without the agent, is the floor of any identity table that hears of collections:
 * the program takes each value's identity hash and keeps a weak reference with a queue per value
 * itself. Prints {@code N=}, {@code HEAP_FILLED=}, {@code DROPPED_AT_MS=} (the JVM's uptime then,
 * to read the pauses after it from {@code -Xlog:gc}), {@code HEAP_EMPTY=}, {@code RELEASED_MS=},
 * {@code HELD_AFTER=} (the agent's MBean, -1 without it) and {@code MAX_PAUSE_MS=} (the longest
 * collection the management beans report meanwhile; G1's remark and cleanup pauses are in the log
 * only).
 */
public final class HeldFootprint {
  private HeldFootprint() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    // The floor of any identity table that hears of collections: the program takes each value's
    // identity hash and keeps a weak reference with a queue per value itself (run without the
    // agent), and the values are gone when all are queued.
    boolean weak = args.length > 1 && args[1].equals("weak");
    java.lang.ref.ReferenceQueue<Object> queue = new java.lang.ref.ReferenceQueue<>();
    Object[] refs = weak ? new Object[n] : null;
    long hashes = 0;
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    BenchSampleCache first = new BenchSampleCache();
    first.put(-1, new byte[16]);
    first.evict(-1);
    long baseline = settledHeap(memory);
    BenchSampleCache cache = new BenchSampleCache();
    for (int i = 0; i < n; i++) {
      byte[] v = new byte[16];
      cache.put(i, v);
      if (weak) {
        refs[i] = new java.lang.ref.WeakReference<Object>(v, queue);
        hashes += System.identityHashCode(v);
      }
    }
    long filled = settledHeap(memory);
    System.out.println("N=" + n + (weak ? " (hashes " + hashes + ")" : ""));
    System.out.println("HEAP_FILLED=" + (filled - baseline));
    System.out.println("CACHED=" + cache.size());
    MAX_PAUSE.set(0);
    watchPauses();
    cache = null; // no evict: each value is released as it is collected
    System.out.println("DROPPED_AT_MS=" + ManagementFactory.getRuntimeMXBean().getUptime());
    long t0 = System.nanoTime();
    long[] queued = {0};
    java.util.function.LongSupplier left =
        () -> {
          if (!weak) {
            return held();
          }
          while (queue.poll() != null) {
            queued[0]++;
          }
          return n - queued[0];
        };
    long empty = settledHeap(memory);
    System.out.println("HEAP_EMPTY=" + (empty - baseline));
    long held = left.getAsLong();
    for (int i = 1; held > 0 && System.nanoTime() - t0 < 30_000_000_000L; i++) {
      Thread.sleep(10);
      held = left.getAsLong();
      if (i % 100 == 0) {
        // What a collection did not find goes at a later one (G1's concurrent cycle finds only
        // weak references in old regions: a holding still in a survivor region waits for its
        // promotion): a program that allocates gets collections, this one asks for them.
        System.gc();
        System.out.println(
            "GC_AGAIN_AT_MS=" + (System.nanoTime() - t0) / 1_000_000 + " HELD=" + held);
      }
    }
    java.lang.ref.Reference.reachabilityFence(refs);
    System.out.println(
        String.format(Locale.ROOT, "RELEASED_MS=%.0f", (System.nanoTime() - t0) / 1e6));
    System.out.println("HELD_AFTER=" + held);
    System.out.println("MAX_PAUSE_MS=" + maxPauseMillis());
  }

  private static long settledHeap(MemoryMXBean memory) throws InterruptedException {
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }

  private static final java.util.concurrent.atomic.AtomicLong MAX_PAUSE =
      new java.util.concurrent.atomic.AtomicLong();

  /** Starts noting every collection's duration (the collectors' notifications). */
  private static void watchPauses() {
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((javax.management.NotificationEmitter) gc)
          .addNotificationListener(
              (n, h) -> {
                if (n.getUserData() instanceof javax.management.openmbean.CompositeData d) {
                  com.sun.management.GarbageCollectionNotificationInfo info =
                      com.sun.management.GarbageCollectionNotificationInfo.from(d);
                  MAX_PAUSE.accumulateAndGet(info.getGcInfo().getDuration(), Math::max);
                }
              },
              null,
              null);
    }
  }

  /** Returns the longest collection so far (ms; G1's concurrent cycles count whole). */
  private static long maxPauseMillis() {
    return MAX_PAUSE.get();
  }

  /** Returns the heap tier's held bytes from the agent's MBean, -1 without the agent. */
  private static long held() {
    try {
      javax.management.MBeanServer s = ManagementFactory.getPlatformMBeanServer();
      javax.management.ObjectName name =
          new javax.management.ObjectName("org.flodl.budget:type=Agent");
      if (!s.isRegistered(name)) {
        return -1;
      }
      javax.management.openmbean.TabularData t =
          (javax.management.openmbean.TabularData) s.getAttribute(name, "HeldBytes");
      for (Object row : t.values()) {
        javax.management.openmbean.CompositeData c = (javax.management.openmbean.CompositeData) row;
        if ("heap".equals(c.get("key"))) {
          return ((Number) c.get("value")).longValue();
        }
      }
      return -1;
    } catch (Exception e) {
      return -1;
    }
  }
}
