package org.flodl.budget.agent.gate;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.ReclaimEvent;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.probes.HostMemory;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.NativeHeap;

/**
 * Keeps a container alive (DESIGN.md, "Keeping a container alive"): inside a memory cgroup the
 * kernel kills the process at the limit, whatever the JVM's own limits say, and two things the
 * cache budget cannot see push a container over: direct buffers that are garbage but not yet
 * collected (the JDK collects for direct memory only at {@code MaxDirectMemorySize}), and native
 * memory glibc keeps after it is freed.
 *
 * <p>When the container's working set passes {@value #HIGH_WATER_PERCENT} % of its limit, the guard
 * asks for a collection on the thread that noticed (as the JDK's own direct-memory limit does) if
 * more direct memory is in use than the agent's caches hold, waits briefly for the freed buffers'
 * cleaners, then calls {@code malloc_trim(0)}; each action is a {@code flodl.budget.Reclaim} event
 * with the usage before and after. It looks at every refresh of the probes and at every decision: a
 * decision reads the container's usage afresh at most every {@value #FRESH_READ_MILLIS} ms and
 * estimates it in between from the direct bytes in use (a counter read), so a job that allocates
 * faster than the probe interval does not outrun it. Reclaims are at least {@value #MIN_GAP_MILLIS}
 * ms apart; each that frees little doubles the gap, up to the probe interval, so a container whose
 * memory is live is not collected over and over. {@code reclaim=off} turns the guard off.
 */
final class ContainerGuard {
  static final int HIGH_WATER_PERCENT = 90;
  static final long MIN_GAP_MILLIS = 50;

  /** Direct memory in use past what the caches hold, below which a collection would free little. */
  private static final long SLACK_BYTES = 16L << 20;

  /**
   * How often a decision reads the container's usage afresh (about 30 µs): between readings the
   * usage is estimated from the direct bytes in use, which miss what glibc keeps of freed memory.
   */
  static final long FRESH_READ_MILLIS = 20;

  private volatile boolean enabled;
  private final TierLedger directLedger; // what the direct tier's caches hold
  private final Supplier<HostMemory> readHost;
  private final long maxGapNanos;

  /** The direct buffer pool, looked up at the first probe reading (not in premain). */
  private volatile BufferPoolMXBean direct;

  private volatile boolean directLooked;
  private final AtomicLong nextAllowed = new AtomicLong();
  private final AtomicLong nextFreshRead = new AtomicLong();
  private volatile long gapNanos = MIN_GAP_MILLIS * 1_000_000L;
  private volatile long limit = -1;
  private volatile long usageAtProbe = -1;
  private volatile long directAtProbe = -1;
  private volatile boolean warnedAtStart;
  private volatile boolean explicitGcDisabled;

  ContainerGuard(TierLedger directLedger, Supplier<HostMemory> readHost, long probeIntervalNanos) {
    this.enabled = true;
    this.directLedger = directLedger;
    this.readHost = readHost;
    this.maxGapNanos = Math.max(MIN_GAP_MILLIS * 1_000_000L, probeIntervalNanos);
  }

  /** Returns the direct buffer pool's bean, looked up once (the management beans load then). */
  private BufferPoolMXBean directPool() {
    if (!directLooked) {
      BufferPoolMXBean pool = null;
      try {
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
          if (b.getName().equals("direct")) {
            pool = b;
          }
        }
      } catch (RuntimeException | LinkageError e) {
        pool = null;
      }
      direct = pool;
      directLooked = true;
    }
    return direct;
  }

  /** Turns the guard on or off ({@code reclaim=on|off}). */
  void enabled(boolean on) {
    enabled = on;
    if (!on) {
      limit = -1;
    }
  }

  /** Takes the probes' last reading (on the probe thread, after each refresh). */
  void observe(MemorySnapshot s) {
    if (!enabled || s == null || s.host() == null) {
      return;
    }
    HostMemory h = s.host();
    limit = h.cgroupLimitBytes() > 0 ? h.cgroupLimitBytes() : -1;
    usageAtProbe = workingSet(h);
    directAtProbe = directUsed();
    if (!warnedAtStart && limit > 0) {
      warnedAtStart = true;
      atStart(s);
    }
    check();
  }

  /** The warnings of a container's start: what the guard cannot prevent, said once. */
  private void atStart(MemorySnapshot s) {
    Log.info(
        "container guard: memory cgroup "
            + s.host().cgroupPath()
            + " ("
            + s.host().source()
            + "), limit "
            + limit
            + " bytes");
    long maxDirect = s.direct() == null ? -1 : s.direct().maxBytes();
    if (maxDirect > limit) {
      String line =
          "MaxDirectMemorySize ("
              + maxDirect
              + " bytes) is above the container's limit"
              + " ("
              + limit
              + "): garbage direct buffers could reach that limit first; the"
              + " container guard collects before they do";
      warnAtStart("MAX_DIRECT_ABOVE_LIMIT", line);
    }
    explicitGcDisabled = explicitGcDisabled();
    if (explicitGcDisabled) {
      String line =
          "-XX:+DisableExplicitGC: the container guard cannot ask for a collection;"
              + " garbage direct buffers are freed only at MaxDirectMemorySize";
      warnAtStart("GC_DISABLED", line);
    }
  }

  /** Says {@code line} and records it as a {@code kind} reclaim event, at the probe's readings. */
  private void warnAtStart(String kind, String line) {
    Log.warn(line);
    ReclaimEvent.emit(
        kind,
        line,
        limit,
        usageAtProbe,
        usageAtProbe,
        directAtProbe,
        directAtProbe,
        directLedger.held());
  }

  /**
   * Looks, cheaply, whether the container nears its limit with garbage direct memory about, and
   * reclaims when it does (on this thread). Never throws.
   */
  void check() {
    long lim = limit;
    if (lim <= 0) {
      return;
    }
    long now = System.nanoTime();
    long allowed = nextAllowed.get();
    if (now - allowed < 0) {
      return;
    }
    try {
      long used = directUsed();
      long fresh = nextFreshRead.get();
      if (now - fresh >= 0
          && nextFreshRead.compareAndSet(fresh, now + FRESH_READ_MILLIS * 1_000_000L)) {
        long ws = workingSet(readHost.get());
        if (ws >= 0) {
          usageAtProbe = ws;
          directAtProbe = used;
        }
      }
      // Direct memory freed since the reading may still count (glibc keeps it): never less.
      long estimate = usageAtProbe + Math.max(0, used - directAtProbe);
      if (estimate * 100 < lim * HIGH_WATER_PERCENT) {
        return;
      }
      if (!nextAllowed.compareAndSet(allowed, now + gapNanos)) {
        return; // another thread reclaims
      }
      reclaim(lim, used);
    } catch (Throwable t) {
      Log.warnOnce("guard", "the container guard failed and is off for this check (" + t + ")");
    }
  }

  private void reclaim(long lim, long directBefore) {
    long held = directLedger.held();
    long before = workingSet(readHost.get());
    if (before * 100 < lim * HIGH_WATER_PERCENT) {
      // The estimate ran ahead of the kernel's count: nothing to do yet; estimate from here.
      usageAtProbe = before;
      directAtProbe = directBefore;
      nextAllowed.set(System.nanoTime() + MIN_GAP_MILLIS * 1_000_000L);
      return;
    }
    long afterGc = before;
    long directAfter = directBefore;
    if (directBefore > held + SLACK_BYTES && !explicitGcDisabled) {
      System.gc();
      directAfter = awaitFrees(directBefore);
      afterGc = workingSet(readHost.get());
      ReclaimEvent.emit(
          "GC",
          "the container at "
              + percent(before, lim)
              + " % of its limit with "
              + (directBefore - held)
              + " direct bytes in use past what the caches hold",
          lim,
          before,
          afterGc,
          directBefore,
          directAfter,
          held);
    }
    // Freed native memory glibc keeps counts against the limit: hand it back (after a
    // collection, and on its own when what is in use is held, or live).
    String trimmed = NativeHeap.trim();
    long afterTrim = workingSet(readHost.get());
    if (trimmed == null) {
      ReclaimEvent.emit(
          "MALLOC_TRIM",
          "the container at "
              + percent(afterGc, lim)
              + " % of its"
              + " limit: freed native memory handed back",
          lim,
          afterGc,
          afterTrim,
          directAfter,
          directUsed(),
          held);
    } else {
      Log.warnOnce("trim", "container guard: " + trimmed);
    }
    long freed = before - afterTrim;
    // A reclaim that freed a twentieth of the limit may be needed again soon; one that freed
    // little means the memory is live: wait longer before the next.
    gapNanos =
        freed * 20 >= lim ? MIN_GAP_MILLIS * 1_000_000L : Math.min(maxGapNanos, gapNanos * 2);
    nextAllowed.set(System.nanoTime() + gapNanos);
    usageAtProbe = afterTrim;
    directAtProbe = directUsed();
  }

  /**
   * Waits (100 ms at most) for the collection's freed buffers to be handed back by their cleaners,
   * as the JDK's own direct-memory limit waits for reference processing; returns the direct bytes
   * in use then.
   */
  private long awaitFrees(long before) {
    long used = directUsed();
    for (int i = 0; i < 100 && used >= before; i++) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
      used = directUsed();
    }
    return used;
  }

  private static long percent(long part, long whole) {
    return whole <= 0 ? -1 : part * 100 / whole;
  }

  private static long workingSet(HostMemory h) {
    if (h == null) {
      return -1;
    }
    return h.cgroupWorkingSetBytes() >= 0 ? h.cgroupWorkingSetBytes() : h.cgroupUsageBytes();
  }

  private long directUsed() {
    BufferPoolMXBean pool = directPool();
    return pool == null ? 0 : pool.getMemoryUsed();
  }

  private static boolean explicitGcDisabled() {
    try {
      com.sun.management.HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      return hs != null && "true".equals(hs.getVMOption("DisableExplicitGC").getValue());
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
