package org.flodl.budget.agent.gate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.DoubleSupplier;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.policy.HeapAnchor;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.StagerSplit;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierBudget;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.probes.HeapMemory;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * The budget of each tier, anchored at what the tier held when the probes were last read: a
 * daemon thread ({@code flodl-budget-probe}) refreshes the probes every {@code probe_interval}
 * and sets each ledger's budget ({@code heap}: {@code heap_max_usage} of heap available plus
 * held; {@code direct}, {@code native}, {@code mapped}: {@code ram_max_usage}; {@code device}:
 * {@code vram_max_usage} of device 0's free VRAM plus held), recording a {@code RamBudget} event
 * when a budget moves. The hot path reads ledgers and the last snapshot, never a file. Until the
 * first refresh every budget is 0; the gate makes that refresh before its first decision.
 */
final class Budgets {
  private final Map<Tier, TierLedger> ledgers = new EnumMap<>(Tier.class);
  private final Supplier<MemoryProbes> probeFactory;
  private volatile MemoryProbes probes;
  private final long intervalMillis;
  private volatile double ramMaxUsage;
  private volatile double heapMaxUsage;
  private volatile double vramMaxUsage;
  private final DoubleSupplier hostShare;
  private final Map<Tier, Long> lastRecorded = new EnumMap<>(Tier.class);
  private volatile MemorySnapshot last;
  private volatile boolean refreshed;
  private volatile Thread thread;
  private final long[] heldAtRefresh = new long[Tier.values().length];
  private volatile boolean refreshRequested;
  /** Whether a device was asked about: until then no refresh reads VRAM (no GPU probe loads). */
  private volatile boolean deviceAsked;
  private volatile long g1RegionBytes = -1;
  private final HeapAnchor heapAnchor = new HeapAnchor();
  private volatile boolean stager;
  private final ContainerGuard guard;
  private final java.util.concurrent.ConcurrentHashMap<String, long[]> rings =
      new java.util.concurrent.ConcurrentHashMap<>();
  private volatile long streamBytes;
  private long lastSplitTotal = -1;
  private volatile long quickHeapAvailable = -1;
  /** The native tier's available bytes as the last refresh budgeted it (JavaCPP's bound in). */
  private volatile long nativeAvailable = -1;
  private static final long ARRAY_HEADER_MAX = 24;

  Budgets(Supplier<MemoryProbes> probeFactory, Duration interval, double ramMaxUsage,
      double heapMaxUsage, double vramMaxUsage, DoubleSupplier hostShare) {
    this.probeFactory = probeFactory;
    this.intervalMillis = Math.max(10, interval.toMillis());
    this.ramMaxUsage = ramMaxUsage;
    this.heapMaxUsage = heapMaxUsage;
    this.vramMaxUsage = vramMaxUsage;
    this.hostShare = hostShare;
    for (Tier t : Tier.values()) {
      ledgers.put(t, new TierLedger(t, 0));
    }
    // Anonymous classes, not lambdas: this runs in premain (see Bootstrap).
    this.guard = new ContainerGuard(true, new java.util.function.LongSupplier() {
      @Override
      public long getAsLong() {
        return ledgers.get(Tier.DIRECT).held();
      }
    }, new Supplier<org.flodl.budget.probes.HostMemory>() {
      @Override
      public org.flodl.budget.probes.HostMemory get() {
        return probes().ramProbe().read();
      }
    }, intervalMillis * 1_000_000L);
  }

  /** Returns the container guard (checked at every decision and refresh). */
  ContainerGuard guard() {
    return guard;
  }

  /**
   * Makes this JVM a stager ({@code role = stager} on a site): every host tier's budget is split
   * 3:1, the pinned three quarters for its caches, the flow quarter of host RAM for its prefetch.
   */
  void stager(boolean on) {
    stager = on;
  }

  /** Returns whether a stager site splits the budgets. */
  boolean stager() {
    return stager;
  }

  /** Returns the flow quarter of the host-RAM stager budget (0 until a stager refresh). */
  /**
   * Sets the bytes the host ring of depth site {@code site} holds in {@code tier} (slots × batch
   * bytes; 0 lets it go) and refreshes the budgets: the ring is cut from the tier's cache budget
   * first, as the seed's {@code sample_cache_budget} does (both draw on the same share).
   */
  void ring(String site, Tier tier, long bytes) {
    long[] previous = rings.put(site, new long[] {tier.ordinal(), Math.max(0, bytes)});
    if (previous == null || previous[0] != tier.ordinal() || previous[1] != bytes) {
      refresh();
    }
  }

  /** Returns the bytes the host rings hold in {@code tier}. */
  long ringBytes(Tier tier) {
    long sum = 0;
    for (long[] r : rings.values()) {
      if (r[0] == tier.ordinal()) {
        sum = sum + r[1] < sum ? Long.MAX_VALUE : sum + r[1]; // both non-negative
      }
    }
    return sum;
  }

  long streamBytes() {
    return streamBytes;
  }

  /** Returns the ledger of {@code tier}. */
  TierLedger ledger(Tier tier) {
    return ledgers.get(tier);
  }

  /** Returns the probes, made on first use (their MXBeans cost start-up time). */
  private MemoryProbes probes() {
    MemoryProbes p = probes;
    if (p == null) {
      synchronized (this) {
        p = probes;
        if (p == null) {
          p = probeFactory.get();
          probes = p;
        }
      }
    }
    return p;
  }

  /** Returns the last snapshot, reading the probes first if they never were. */
  MemorySnapshot snapshot() {
    ensureRefreshed();
    return last;
  }

  /** Returns the knob of the host-RAM tiers. */
  double ramMaxUsage() {
    return ramMaxUsage;
  }

  /** Returns the knob of the heap tier. */
  double heapMaxUsage() {
    return heapMaxUsage;
  }

  /** Returns the knob of the device tier. */
  double vramMaxUsage() {
    return vramMaxUsage;
  }

  /** Sets one knob (0 ram, 1 heap, 2 vram; live control) and re-budgets at once. */
  void knob(Knob knob, double value) {
    switch (knob) {
      case RAM_MAX_USAGE -> ramMaxUsage = value;
      case HEAP_MAX_USAGE -> heapMaxUsage = value;
      case VRAM_MAX_USAGE -> vramMaxUsage = value;
    }
    refresh();
  }

  /** Returns host available bytes from the last snapshot, empty when unknown. */
  OptionalLong hostAvailable() {
    MemorySnapshot s = snapshot();
    long a = s == null || s.host() == null ? -1 : s.host().availableBytes();
    return a < 0 ? OptionalLong.empty() : OptionalLong.of(a);
  }

  /**
   * Returns the reading of {@code device} (cached by the probes, refreshed with them). The first
   * call starts the GPU probes (JCuda, JNA, the CUDA runtime, NVML): only a decision on a device,
   * or {@link #expectDevice()}, makes one; a JVM that never budgets a GPU never loads them.
   */
  VramReading vram(int device) {
    deviceAsked = true;
    ensureRefreshed();
    return probes().vram(device);
  }

  /** Returns device 0's reading once a device was asked about (see {@link #vram}), else null. */
  VramReading vramIfAsked() {
    return deviceAsked ? probes().vram(0) : null;
  }

  /**
   * Says a site budgets a GPU (or the VRAM probe is {@code fixed:}): every refresh reads device 0
   * from the first on, so the device tier has a budget before the first device decision.
   */
  void expectDevice() {
    deviceAsked = true;
  }

  /** Makes the first refresh now if none has happened (the first decision waits for it). */
  void ensureRefreshed() {
    if (!refreshed) {
      refresh();
    }
  }

  /**
   * Makes sure {@code tier} has a budget before its first decision. The heap tier does not wait
   * for the probes (their management beans take a while to load, on the application's thread):
   * until the probe thread's first refresh it is budgeted on {@code Runtime}'s figures, max heap
   * minus the heap in use, garbage included (the conservative side).
   */
  void ensureRefreshed(Tier tier) {
    if (refreshed) {
      return;
    }
    if (tier == Tier.HEAP) {
      if (quickHeapAvailable < 0) {
        quickHeap();
      }
      return;
    }
    refresh();
  }

  private void quickHeap() {
    // Not under the refresh lock: the probe thread may hold it for as long as its first read
    // takes, and the application's thread must not wait for that.
    if (refreshed || quickHeapAvailable >= 0) {
      return;
    }
    Runtime rt = Runtime.getRuntime();
    long available = Math.max(0, rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()));
    TierLedger ledger = ledgers.get(Tier.HEAP);
    List<Runnable> events = new ArrayList<>(1);
    long held = ledger.held();
    setBudget(Tier.HEAP, ledger, TierBudget.of(Tier.HEAP, available, held, held, heapMaxUsage,
        1.0, ringBytes(Tier.HEAP)), events);
    for (Runnable e : events) {
      e.run();
    }
    quickHeapAvailable = available;
  }

  /** Returns {@code tier}'s available bytes as last read, -1 when unknown; never reads now. */
  long available(Tier tier) {
    MemorySnapshot s = last;
    if (s == null) {
      return tier == Tier.HEAP ? quickHeapAvailable : -1;
    }
    return tier == Tier.NATIVE ? nativeAvailable : s.availableBytes(tier);
  }

  /**
   * Returns host RAM's {@code available} bounded by what the libraries let this process allocate
   * natively (JavaCPP's limits, where ND4J is loaded): that limit throws first.
   */
  private static long withLibraryBounds(long available) {
    long bound = Library.nativeBound();
    return bound < 0 ? available : available < 0 ? bound : Math.min(available, bound);
  }

  /** Starts the refresh thread once; later calls do nothing. */
  synchronized void start(Runnable afterFirstRefresh) {
    if (thread != null) {
      return;
    }
    Thread t = new Thread(new Runnable() {
      @Override
      public void run() {
        loop(afterFirstRefresh);
      }
    }, "flodl-budget-probe");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  private void loop(Runnable afterFirstRefresh) {
    refresh();
    // The MBean server and the recorder's periodic hooks take a while to start: off this thread,
    // so the budgets keep up with a cache that fills in its first second.
    Thread later = new Thread(new Runnable() { // no lambda: start-up (StartPathIT)
      @Override
      public void run() {
        try {
          afterFirstRefresh.run();
        } catch (Throwable e) {
          Log.warn("start-up after the first probe failed: " + e);
        }
      }
    }, "flodl-budget-start");
    later.setDaemon(true);
    later.start();
    while (!Thread.currentThread().isInterrupted()) {
      long deadline = System.nanoTime() + intervalMillis * 1_000_000L;
      while (!refreshRequested) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        LockSupport.parkNanos(this, left);
        if (Thread.currentThread().isInterrupted()) {
          return;
        }
      }
      refreshRequested = false;
      refresh();
    }
  }

  /**
   * Asks the probe thread to refresh now when {@code tier} (the heap: its live figure is only as
   * fresh as the last collection) has grown by an eighth of its budget
   * since the last refresh: what the tier holds may cost the memory more than its price (a heap
   * object larger than half a G1 region takes whole regions), and the probes see that cost only
   * when read. The caller never waits and never reads a file.
   */
  void grew(Tier tier, long heldNow, long budget) {
    if (heldNow - heldAtRefresh[tier.ordinal()] > budget / 8 && !refreshRequested) {
      refreshRequested = true;
      Thread t = thread;
      if (t != null) {
        LockSupport.unpark(t);
      }
    }
  }

  /**
   * Returns what retaining a heap value of {@code charged} bytes costs the heap: under G1 an
   * object of half a region or more is humongous and takes whole regions (measured: a 1 MiB
   * {@code byte[]} at {@code -Xmx256m}, 1 MiB regions, takes 2 MiB: its header tips it over one
   * region), so a single array's allocation (a heap buffer's with its array's header) is rounded
   * up to whole regions; a list or array of such arrays (a batch of 1 MiB rows) is rounded
   * element by element, at the mean element's size; anything else costs its charge.
   */
  long heapFootprint(Object value, long charged) {
    long region = g1RegionBytes;
    if (region < 0) {
      region = ergonomicG1Region(); // until the first probe reads the real one
    }
    if (region <= 0 || charged < region / 2) {
      return charged;
    }
    if (value.getClass().isArray() && value.getClass().getComponentType().isPrimitive()) {
      return regions(charged, region); // its whole allocation already
    }
    if (value instanceof java.nio.ByteBuffer) {
      return regions(charged + ARRAY_HEADER_MAX, region); // its array's payload, and the header
    }
    int n = value instanceof java.util.Collection<?> c ? c.size()
        : value instanceof Object[] a ? a.length : 0;
    long mean = n > 0 ? charged / n : 0;
    if (mean < region / 2) {
      return charged;
    }
    long each = regions(mean, region);
    return each > Long.MAX_VALUE / n ? charged : Math.max(charged, each * n);
  }

  private static long regions(long allocation, long region) {
    long regions = (allocation + region - 1) / region;
    return regions > Long.MAX_VALUE / region ? allocation : regions * region;
  }

  /** Returns G1's default region size for this max heap: maxHeap/2048 as a power of 2, 1..32 MiB. */
  private static long ergonomicG1Region() {
    long target = Runtime.getRuntime().maxMemory() / 2048;
    long region = Long.highestOneBit(Math.max(1, target));
    return Math.max(1L << 20, Math.min(32L << 20, region));
  }

  private static long g1RegionSize() {
    try {
      boolean g1 = false;
      for (java.lang.management.GarbageCollectorMXBean gc :
          java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
        g1 |= gc.getName().startsWith("G1 ");
      }
      if (!g1) {
        return 0;
      }
      com.sun.management.HotSpotDiagnosticMXBean hs =
          java.lang.management.ManagementFactory.getPlatformMXBean(
              com.sun.management.HotSpotDiagnosticMXBean.class);
      return Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue());
    } catch (Throwable t) {
      return 0;
    }
  }

  /**
   * Reads the probes now and re-budgets every tier; the events that say so are committed after
   * the lock is let go (no lock of the agent is held while Flight Recorder is called). Never
   * throws.
   */
  void refresh() {
    List<Runnable> events = new ArrayList<>(Tier.values().length + 1);
    synchronized (this) {
      refreshLocked(events);
    }
    for (Runnable e : events) {
      try {
        e.run();
      } catch (Throwable t) {
        // recording is best effort; the budgets are set
      }
    }
    guard.observe(last); // outside the lock: it may collect, and it emits events
  }

  private void refreshLocked(List<Runnable> events) {
    try {
      if (g1RegionBytes < 0) {
        g1RegionBytes = g1RegionSize();
      }
      MemoryProbes probes = probes();
      MemorySnapshot s = probes.refresh();
      nativeAvailable = withLibraryBounds(s.availableBytes(Tier.NATIVE)); // published with the snapshot
      last = s;
      double share = share();
      for (Tier tier : Tier.values()) {
        TierLedger ledger = ledgers.get(tier);
        long held = ledger.held();
        heldAtRefresh[tier.ordinal()] = held;
        long available;
        long anchor = held;
        if (tier == Tier.DEVICE) {
          VramReading v = deviceAsked ? probes.vram(0) : null;
          available = v == null || v.failed() ? -1 : Math.max(0, v.totalBytes() - v.usedBytes());
        } else {
          available = tier == Tier.NATIVE ? nativeAvailable : s.availableBytes(tier);
          if (available < 0) {
            Log.warnOnce("unknown-" + tier, "the " + tier.label() + " tier's available memory "
                + "cannot be measured; it admits nothing until it can");
          }
          if (tier == Tier.HEAP) {
            HeapMemory heap = s.heap();
            anchor = heapAnchor.at(heap != null && heap.afterGc(),
                heap == null ? 0 : heap.liveBytes(), held);
          }
        }
        RamBudget b = TierBudget.of(tier, available, held, anchor, knob(tier), share,
            ringBytes(tier));
        if (stager && tier != Tier.DEVICE && available >= 0) {
          b = split(tier, b, events);
        }
        setBudget(tier, ledger, b, events);
      }
      refreshed = true;
    } catch (Throwable e) {
      Log.warnOnce("refresh", "reading the memory probes failed, budgets kept as they were: " + e);
      refreshed = true;
    }
  }

  /**
   * Returns {@code b} with its budget cut to the pinned three quarters of the stager split; the
   * native tier's (host RAM) flow quarter becomes the prefetch's budget, recorded as a
   * {@code StagerSplit} event when it moves.
   */
  private RamBudget split(Tier tier, RamBudget b, List<Runnable> events) {
    TierBudget.Staged staged = TierBudget.staged(b);
    StagerSplit split = staged.split();
    if (tier == Tier.NATIVE) {
      streamBytes = split.streamBytes();
      if (split.totalBytes() != lastSplitTotal) {
        lastSplitTotal = split.totalBytes();
        events.add(new Runnable() {
          @Override
          public void run() {
            DecisionEvents.split(split);
          }
        });
      }
    }
    return staged.budget();
  }

  /** Returns the current value of {@code tier}'s knob. */
  private double knob(Tier tier) {
    return tier == Tier.HEAP ? heapMaxUsage : tier == Tier.DEVICE ? vramMaxUsage : ramMaxUsage;
  }

  private double share() {
    try {
      double s = hostShare.getAsDouble();
      return s > 0 && s <= 1 ? s : 1.0;
    } catch (Throwable e) {
      return 1.0;
    }
  }

  /** Sets the budget; when it moved, adds its RamBudget event to {@code events} to commit. */
  private void setBudget(Tier tier, TierLedger ledger, RamBudget b, List<Runnable> events) {
    ledger.setBudget(b.budgetBytes());
    Long previous;
    synchronized (lastRecorded) {
      previous = lastRecorded.put(tier, b.budgetBytes());
    }
    if ((previous == null || previous != b.budgetBytes()) && Recorder.on()) {
      events.add(new Runnable() {
        @Override
        public void run() {
          DecisionEvents.budget(tier, b);
        }
      });
    }
  }
}
