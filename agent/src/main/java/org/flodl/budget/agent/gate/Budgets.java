package org.flodl.budget.agent.gate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.policy.HeapAnchor;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierBudget;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.pricing.HeapFootprint;
import org.flodl.budget.probes.HeapMemory;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramReading;

/**
 * The budget of each tier, anchored at what the tier held when the probes were last read: a daemon
 * thread ({@code flodl-budget-probe}) refreshes the probes every {@code probe_interval} and sets
 * each ledger's budget ({@code heap}: {@code heap_max_usage} of heap available plus held; {@code
 * direct}, {@code native}, {@code mapped}: {@code ram_max_usage}; {@code device}: {@code
 * vram_max_usage} of device 0's free VRAM plus held), recording a {@code RamBudget} event when a
 * budget moves. The hot path reads ledgers and the last snapshot, never a file. Until the first
 * refresh every budget is 0; the gate makes that refresh before its first decision. Its one job,
 * each tier's budget at each refresh, brings probes, anchors, knobs, host share, rings and split
 * together, hence its length; the thread ({@link ProbeThread}), rings ({@link RingBook}), split
 * ({@link StagerSplits}), knobs ({@link UsageKnobs}) and region arithmetic are their own.
 */
final class Budgets {
  private final TierLedger[] ledgers = new TierLedger[Tier.values().length]; // by ordinal
  private final Supplier<MemoryProbes> probeFactory;
  private final EarlyVram earlyVram; // null: device readings come from the probes alone
  private volatile MemoryProbes probes;
  private final long intervalMillis;

  /** The usage caps, read at every refresh. */
  final UsageKnobs knobs;

  private final DoubleSupplier hostShare;

  /** Each tier's budget as last recorded, inverted (0: none yet): swapped, never under a lock. */
  private final AtomicLongArray lastRecorded = new AtomicLongArray(Tier.values().length);

  private volatile MemorySnapshot last;
  private volatile boolean refreshed;
  private final ProbeThread thread;
  private final long[] heldAtRefresh = new long[Tier.values().length];

  /** Whether a device was asked about: until then no refresh reads VRAM (no GPU probe loads). */
  private volatile boolean deviceAsked;

  private final HeapAnchor heapAnchor = new HeapAnchor();
  private final StagerSplits stager = new StagerSplits();
  private final ContainerGuard guard;
  private final RingBook rings = new RingBook();
  private volatile long quickHeapAvailable = -1;

  /** The libraries' bound changes the last refresh saw ({@link Library#boundChanged}). */
  private volatile long boundChanges;

  /** The native tier's available bytes as the last refresh budgeted it (JavaCPP's bound in). */
  private volatile long nativeAvailable = -1;

  Budgets(
      Supplier<MemoryProbes> probeFactory,
      Supplier<VramProbe> vramProbe,
      Duration interval,
      double ramMaxUsage,
      double heapMaxUsage,
      double vramMaxUsage,
      DoubleSupplier hostShare) {
    this.probeFactory = probeFactory;
    this.earlyVram = vramProbe == null ? null : new EarlyVram(vramProbe);
    this.intervalMillis = Math.max(10, interval.toMillis());
    this.knobs = new UsageKnobs(ramMaxUsage, heapMaxUsage, vramMaxUsage);
    this.hostShare = hostShare;
    this.thread = new ProbeThread(this, intervalMillis);
    for (Tier t : Tier.values()) {
      ledgers[t.ordinal()] = new TierLedger(t, 0);
    }
    // Anonymous classes, not lambdas: this runs in premain (see Bootstrap).
    this.guard =
        new ContainerGuard(
            ledgers[Tier.DIRECT.ordinal()],
            new Supplier<org.flodl.budget.probes.HostMemory>() {
              @Override
              public org.flodl.budget.probes.HostMemory get() {
                return probes().ramProbe().read();
              }
            },
            intervalMillis * 1_000_000L);
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
    stager.on(on);
  }

  /** Returns whether a stager site splits the budgets. */
  boolean stager() {
    return stager.on();
  }

  /**
   * Sets the bytes the host ring of depth site {@code site} holds in {@code tier} (see {@link
   * RingBook}) and, when that changed, refreshes the budgets.
   */
  void ring(String site, Tier tier, long bytes) {
    if (rings.book(site, tier, bytes)) {
      refresh();
    }
  }

  /** Returns the flow quarter of the host-RAM stager budget (0 until a stager refresh). */
  long streamBytes() {
    return stager.streamBytes();
  }

  /** Returns the ledger of {@code tier}. */
  TierLedger ledger(Tier tier) {
    return ledgers[tier.ordinal()];
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

  /** Sets one knob (live control) and re-budgets at once. */
  void knob(Knob knob, double value) {
    knobs.set(knob, value);
    refresh();
  }

  /** Returns each tier's held bytes ({@code held}) or budget. */
  Map<Tier, Long> perTier(boolean held) {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      TierLedger l = ledgers[t.ordinal()];
      m.put(t, held ? l.held() : l.budget());
    }
    return m;
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
    if (!refreshed && earlyVram != null) {
      return earlyVram.read(device); // no wait for the host and heap probes (see EarlyVram)
    }
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
   * Makes sure {@code tier} has a budget before its first decision. The heap tier does not wait for
   * the probes (their management beans take a while to load, on the application's thread): until
   * the probe thread's first refresh it is budgeted on {@code Runtime}'s figures, max heap minus
   * the heap in use, garbage included (the conservative side).
   */
  void ensureRefreshed(Tier tier) {
    if (refreshed && (tier != Tier.NATIVE || boundChanges == Library.boundChanges())) {
      return; // a library's new bound on the native tier (an Arrow allocator seen) refreshes
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
    TierLedger ledger = ledgers[Tier.HEAP.ordinal()];
    List<Runnable> events = new ArrayList<>(1);
    long held = ledger.held();
    setBudget(
        Tier.HEAP,
        ledger,
        TierBudget.of(
            Tier.HEAP,
            available,
            held,
            held,
            knobs.get(Knob.HEAP_MAX_USAGE),
            1.0,
            rings.bytes(Tier.HEAP)),
        events);
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
   * Starts the probe thread once ({@link ProbeThread}), which trims {@code holdings} after each
   * refresh; later calls do nothing.
   */
  void start(Runnable afterFirstRefresh, Holdings holdings) {
    thread.start(afterFirstRefresh, holdings);
  }

  /**
   * Asks the probe thread to refresh now when {@code tier} (the heap: its live figure is only as
   * fresh as the last collection) has grown by an eighth of its budget since the last refresh: what
   * the tier holds may cost the memory more than its price (a heap object larger than half a G1
   * region takes whole regions), and the probes see that cost only when read. The caller never
   * waits and never reads a file.
   */
  void grew(Tier tier, long heldNow, long budget) {
    if (heldNow - heldAtRefresh[tier.ordinal()] > budget / 8) {
      thread.request();
    }
  }

  /**
   * Reads the probes now and re-budgets every tier; the events that say so are committed after the
   * lock is let go (no lock of the agent is held while Flight Recorder is called). Never throws.
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
    boundChanges = Library.boundChanges(); // seen, whether or not this refresh succeeds
    try {
      HeapFootprint.readRegion(); // once: what a heap value's charge costs the heap
      MemoryProbes probes = probes();
      MemorySnapshot s = probes.refresh();
      nativeAvailable =
          Library.nativeBound(s.availableBytes(Tier.NATIVE)); // published with the snapshot
      last = s;
      double share = share();
      for (Tier tier : Tier.values()) {
        TierLedger ledger = ledgers[tier.ordinal()];
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
            Log.warnOnce(
                "unknown-" + tier,
                "the "
                    + tier.label()
                    + " tier's available memory "
                    + "cannot be measured; it admits nothing until it can");
          }
          if (tier == Tier.HEAP) {
            HeapMemory heap = s.heap();
            anchor =
                heapAnchor.at(
                    heap != null && heap.afterGc(), heap == null ? 0 : heap.liveBytes(), held);
          }
        }
        RamBudget b =
            TierBudget.of(tier, available, held, anchor, knobs.of(tier), share, rings.bytes(tier));
        if (stager.on() && tier != Tier.DEVICE && available >= 0) {
          b = stager.split(tier, b, events);
        }
        setBudget(tier, ledger, b, events);
      }
      refreshed = true;
    } catch (Throwable e) {
      Log.warnOnce("refresh", "reading the memory probes failed, budgets kept as they were: " + e);
      refreshed = true;
    }
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
    long previous = ~lastRecorded.getAndSet(tier.ordinal(), ~b.budgetBytes());
    if (previous != b.budgetBytes() && Recorder.on()) {
      events.add(
          new Runnable() {
            @Override
            public void run() {
              DecisionEvents.budget(tier, b);
            }
          });
    }
  }
}
