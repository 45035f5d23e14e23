package org.flodl.budget.agent.gate;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.SamplingEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * An engine's periodic events, registered once Flight Recorder runs: the memory probe; per cache
 * site and tier its summary, and the leftovers of its sampler (so the events' weights add up to the
 * summaries' counts); at each chunk's end the chunk's sampling account. The hooks are one per JVM:
 * only the installed engine's take them.
 */
final class PeriodicEvents {
  private final GateEngine engine;
  private final Budgets budgets;
  private final PointRegistry registry;

  /** CacheAdmission events committed (the sampled ones), for the chunk's sampling account. */
  private final LongAdder admissionEvents;

  private final AtomicBoolean registered = new AtomicBoolean();

  /** Fills the memory reading; {@link #probed} says one was committed in the chunk. */
  private final Consumer<MemoryProbeEvent> probe =
      new Consumer<MemoryProbeEvent>() {
        @Override
        public void accept(MemoryProbeEvent e) {
          fillProbeEvent(e);
          probed = true;
        }
      };

  /** Whether a memory reading was committed since the last chunk's end. */
  private volatile boolean probed;

  private final Object closing = new Object();
  private long lastClose = System.nanoTime(); // guarded by closing
  private long chunkDecisions; // guarded by closing: decisions since the last Sampling event
  private long chunkReleases; // guarded by closing

  PeriodicEvents(
      GateEngine engine, Budgets budgets, PointRegistry registry, LongAdder admissionEvents) {
    this.engine = engine;
    this.budgets = budgets;
    this.registry = registry;
    this.admissionEvents = admissionEvents;
  }

  /** Registers the periodic events now if the recorder is initialized, else once it is. */
  void registerWhenRecording() {
    Recorder.whenInitialized(
        new Runnable() {
          @Override
          public void run() {
            registerNow();
          }
        });
  }

  /**
   * At the engine's start (attach, or its first decision), on that thread: registers the periodic
   * events now if a recording runs, so that its ledger (the {@code SiteSummary} events at each
   * chunk's end) is whole however soon after its first decision the job ends. Otherwise they
   * register after the probes' first refresh ({@link #registerWhenRecording}), which waits up to
   * {@value ProbeThread#FIRST_REFRESH_MILLIS} ms.
   */
  void registerIfRecording() {
    try {
      if (Recorder.on()) {
        registerNow();
      }
    } catch (Throwable e) { // the engine starts all the same; the first refresh tries again
      registered.set(false);
      Log.warnOnce("periodic-events", "registering the periodic events failed: " + e);
    }
  }

  /**
   * Registers the JVM's periodic events for the engine, once, when it is the installed one: an
   * engine the woven code does not reach (an in-process test's) must not take them over. No monitor
   * of ours is held while Flight Recorder is called.
   */
  void registerNow() {
    if (!Gate.isInstalled(engine) || !registered.compareAndSet(false, true)) {
      return;
    }
    MemoryProbeEvent.register(probe);
    SiteSummaryEvent.register(
        new Runnable() {
          @Override
          public void run() {
            emitSummaries();
          }
        });
    SamplingEvent.register(
        new Runnable() {
          @Override
          public void run() {
            closeChunk();
          }
        });
  }

  private void fillProbeEvent(MemoryProbeEvent e) {
    MemorySnapshot s = budgets.snapshot();
    if (s != null) {
      if (s.host() != null) {
        e.host(s.host().availableBytes(), s.host().cgroupLimitBytes(), s.host().cgroupUsageBytes());
        e.source(s.host().source(), s.host().cgroupPath());
      }
      if (s.heap() != null) {
        e.heap(s.heap().maxBytes(), s.heap().liveBytes());
      }
      if (s.direct() != null) {
        e.direct(s.direct().usedBytes(), s.direct().maxBytes());
      }
    }
    VramReading v = budgets.vramIfAsked(); // no GPU probe for a JVM that budgets no GPU
    boolean vram = v != null && !v.failed();
    if (vram) {
      e.vram(v.usedBytes(), v.totalBytes());
    }
    for (Tier t : Tier.values()) {
      TierLedger l = budgets.ledger(t);
      long available =
          t == Tier.DEVICE
              ? (vram && v.totalBytes() >= 0 && v.usedBytes() >= 0
                  ? Math.max(0, v.totalBytes() - v.usedBytes())
                  : -1)
              : s == null ? -1 : s.availableBytes(t);
      e.tier(t.label(), available, l.held(), l.budget());
    }
  }

  /**
   * Closes the period: per cache site and tier, its summary since the last close, and one event per
   * site, tier and kind for the decisions the sampler held back since its last committed event (so
   * the events' weights add up to the summaries' counts).
   */
  private void emitSummaries() {
    synchronized (closing) {
      List<CacheSite> sites = registry.cacheSites();
      long now = System.nanoTime();
      double seconds = (now - lastClose) / 1e9;
      lastClose = now;
      double admissionRate = CacheAdmissionEvent.Throttle.RATE.perSecond();
      double releaseRate = ReleaseEvent.Throttle.RATE.perSecond();
      int tiers = Tier.values().length;
      for (CacheSite s : sites) {
        long[][] left = new long[tiers][CacheSite.KINDS];
        for (CacheSite.Tiered t : s.close(left, admissionRate, releaseRate, seconds)) {
          TierLedger l = budgets.ledger(t.tier());
          SiteSummaryEvent.Counts c = t.counts();
          chunkDecisions += c.admissions() + c.declines() + c.alreadyHeld();
          chunkReleases += c.releases();
          SiteSummaryEvent.emit(
              s.name(), Labels.of(t.tier()), c, t.siteHeldBytes(), l.held(), l.budget());
        }
        for (Tier tier : Tier.values()) {
          for (int k = 0; k < CacheSite.KINDS; k++) {
            long n = left[tier.ordinal()][k];
            if (n > 0) {
              leftover(s, tier, k, n);
            }
          }
        }
      }
    }
  }

  /**
   * Commits the event that stands for {@code n} decisions of {@code kind} no event stood for: the
   * kind's last committed event again (its price, and the ledger as it stood then, so an admission
   * still reads at most its budget), now standing for the {@code n}.
   */
  private void leftover(CacheSite site, Tier tier, int kind, long n) {
    CacheSite.Sample p = site.sample(kind);
    TierLedger l = budgets.ledger(tier);
    long held = p.held() >= 0 ? p.held() : l.held();
    if (kind >= CacheSite.FIRST_RELEASE) {
      if (ReleaseEvent.emit(
          site.name(), Labels.of(tier), p.chargedBytes(), CacheSite.NAMES[kind], held, n)) {
        Holdings.EVENTS.increment();
      }
    } else if (DecisionEvents.admission(site, tier, kind, p)
        .heldBytes(held)
        .budgetBytes(p.budget() >= 0 ? p.budget() : l.budget())
        .availableBytes(p.held() >= 0 ? p.available() : Admission.available(budgets, tier))
        .decisions(n)
        .emit()) {
      admissionEvents.increment();
    }
  }

  /**
   * At the end of every chunk (a rotation, a dump, a recording's stop, the JVM's exit): the
   * period's summaries and leftovers, so the chunk's ledger is whole, then the chunk's sampling
   * account, and a memory reading when the chunk has none.
   */
  private void closeChunk() {
    synchronized (closing) {
      emitSummaries();
      SamplingEvent.emit(
          CacheAdmissionEvent.Throttle.RATE.text(),
          ReleaseEvent.Throttle.RATE.text(),
          chunkDecisions,
          admissionEvents.sumThenReset(),
          chunkReleases,
          Holdings.EVENTS.sumThenReset());
      chunkDecisions = 0;
      chunkReleases = 0;
    }
    if (!probed) {
      // A chunk that ends before the reading's first period (a job shorter than a second) still
      // holds one: the heap's max and each tier's budget, for the report and Mission Control.
      try {
        MemoryProbeEvent.emit(probe);
      } catch (RuntimeException | LinkageError e) {
        // best effort: the chunk's ledger is committed above
      }
    }
    probed = false;
  }
}
