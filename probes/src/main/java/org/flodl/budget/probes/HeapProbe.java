package org.flodl.budget.probes;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code heap} tier's probe: max heap minus the live heap after the last collection, not minus
 * current usage, which counts garbage. The live heap is the sum of every heap pool's usage as the
 * most recent collection left it ({@code com.sun.management.GcInfo}), the number a GC log prints
 * after the arrow. The pools' own collection usage is not enough: measured on JDK 17, a young
 * collection leaves {@code G1 Old Gen}'s (and Serial's {@code Tenured Gen}'s) collection usage at 0
 * while it promotes into it; ZGC's pause collector reports an empty heap and is skipped. Before the
 * first collection, or on a JDK without {@code com.sun.management}, the probe reports current usage
 * (conservative). Collections are counted, so a read with no collection since the last one re-reads
 * nothing but the current usage.
 */
public final class HeapProbe {
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final List<GarbageCollectorMXBean> collectors;
  private final Set<String> heapPools;
  private long seenCollections = -1;
  private long lastLive = -1;

  /** Returns a probe of this JVM's heap. */
  public HeapProbe() {
    List<GarbageCollectorMXBean> gcs = new ArrayList<>();
    try {
      for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
        if (isSunBean(gc)) {
          gcs.add(gc);
        }
      }
    } catch (Throwable t) { // LinkageError when jdk.management is absent: current usage only
      gcs.clear();
    }
    this.collectors = List.copyOf(gcs);
    Set<String> pools = new HashSet<>(); // no stream or lambda: the first probe (start-up)
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        pools.add(p.getName());
      }
    }
    this.heapPools = Set.copyOf(pools);
  }

  private static boolean isSunBean(GarbageCollectorMXBean gc) {
    return gc instanceof com.sun.management.GarbageCollectorMXBean;
  }

  /** Returns a fresh reading; never throws. */
  public synchronized HeapMemory read() {
    long max = Runtime.getRuntime().maxMemory();
    long used;
    try {
      used = memory.getHeapMemoryUsage().getUsed();
    } catch (RuntimeException e) {
      used = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
    }
    long live = liveAfterLastGc();
    boolean afterGc = live >= 0;
    if (!afterGc) {
      live = used;
    }
    return new HeapMemory(max, live, used, afterGc, Math.max(max - live, 0));
  }

  /** Returns the heap right after the most recent collection, or -1 before the first one. */
  private long liveAfterLastGc() {
    long count = 0;
    for (GarbageCollectorMXBean gc : collectors) {
      count += Math.max(gc.getCollectionCount(), 0);
    }
    if (count == 0) {
      return -1;
    }
    if (count == seenCollections) {
      return lastLive;
    }
    com.sun.management.GcInfo latest = null;
    long live = -1;
    try {
      for (GarbageCollectorMXBean gc : collectors) {
        com.sun.management.GcInfo info =
            ((com.sun.management.GarbageCollectorMXBean) gc).getLastGcInfo();
        if (info == null || (latest != null && info.getEndTime() < latest.getEndTime())) {
          continue;
        }
        // ZGC's "ZGC Pauses" (JDK 17) reports an empty heap before and after: no accounting.
        long before = heapUsed(info.getMemoryUsageBeforeGc());
        long after = heapUsed(info.getMemoryUsageAfterGc());
        if (before == 0 && after == 0) {
          continue;
        }
        latest = info;
        live = after;
      }
    } catch (RuntimeException e) {
      return -1;
    }
    if (latest == null) {
      return -1;
    }
    seenCollections = count;
    lastLive = live;
    return live;
  }

  private long heapUsed(Map<String, MemoryUsage> pools) {
    long sum = 0;
    for (Map.Entry<String, MemoryUsage> pool : pools.entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        sum += pool.getValue().getUsed();
      }
    }
    return sum;
  }
}
