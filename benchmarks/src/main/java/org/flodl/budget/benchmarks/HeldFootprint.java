package org.flodl.budget.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.Locale;

/**
 * What the agent keeps per held value, and what letting a million go by collection costs: fills a
 * {@link BenchSampleCache} (the benchmark's method site) with {@code N} values of 16 bytes, reads
 * the heap used after full collections, then drops the cache without evicting (so every value is
 * released when it is collected, through the agent's identity table), collects, and prints the
 * heap again, the longest collection while the values went and how long the held bytes took to
 * reach 0. Run once
 * without and once with the agent; the difference in heap over {@code N} is the agent's bytes per
 * held value:
 *
 * <pre>
 * java -Xmx6g -cp benchmarks/target/benchmarks.jar org.flodl.budget.benchmarks.HeldFootprint 1000000
 * java -Xmx6g -javaagent:agent/target/flodl-budget-agent.jar=sites=SITES,heap_max_usage=1 \
 *      -cp benchmarks/target/benchmarks.jar org.flodl.budget.benchmarks.HeldFootprint 1000000
 * </pre>
 *
 * (SITES: {@link BenchSampleCache#SITES} in a file.) Prints {@code N=}, {@code HEAP_FILLED=},
 * {@code HEAP_EMPTY=}, {@code MAX_PAUSE_MS=} and {@code HELD_AFTER=} (the agent's MBean, -1
 * without the agent).
 */
public final class HeldFootprint {
  private HeldFootprint() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long baseline = settledHeap(memory);
    BenchSampleCache cache = new BenchSampleCache();
    for (int i = 0; i < n; i++) {
      cache.put(i, new byte[16]);
    }
    long filled = settledHeap(memory);
    System.out.println("N=" + n);
    System.out.println("HEAP_FILLED=" + (filled - baseline));
    System.out.println("CACHED=" + cache.size());
    MAX_PAUSE.set(0);
    watchPauses();
    cache = null; // no evict: each value is released as it is collected
    long t0 = System.nanoTime();
    long empty = settledHeap(memory);
    long held = held();
    while (held > 0 && System.nanoTime() - t0 < 30_000_000_000L) {
      Thread.sleep(10);
      held = held();
    }
    System.out.println("HEAP_EMPTY=" + (empty - baseline));
    System.out.println(String.format(Locale.ROOT, "RELEASED_MS=%.0f",
        (System.nanoTime() - t0) / 1e6));
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
      ((javax.management.NotificationEmitter) gc).addNotificationListener((n, h) -> {
        if (n.getUserData() instanceof javax.management.openmbean.CompositeData d) {
          com.sun.management.GarbageCollectionNotificationInfo info =
              com.sun.management.GarbageCollectionNotificationInfo.from(d);
          MAX_PAUSE.accumulateAndGet(info.getGcInfo().getDuration(), Math::max);
        }
      }, null, null);
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
      javax.management.ObjectName name = new javax.management.ObjectName(
          "org.flodl.budget:type=Agent");
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
