package org.flodl.budget.agent.report;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.gate.DecisionEvents;
import org.flodl.budget.agent.record.BudgetRecording;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.ReleaseCause;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierBudget;
import org.flodl.budget.policy.TierLedger;

/**
 * A training run's budget decisions, taken by the real policy and ledger the way the agent's gate
 * takes them, committed as events under a {@link BudgetRecording}: a sample cache on the heap whose
 * budget shrinks as the rest of the process grows (so it ends up declining), an eviction release
 * site, a DJL prefetch site whose depth falls as VRAM fills, a host reader ring, the periodic
 * memory probe and site summaries, the configuration and the classes woven. It keeps its own
 * tallies, which the report must reproduce.
 */
final class TrainingScenario {
  static final String SITE = "samples";
  static final long SAMPLE = 1L << 20;
  static final long VRAM_TOTAL = 6360465408L;

  long admissions;
  long declines;
  long materialized;
  long admittedBytes;
  long declinedBytes;
  long releasedBytes;
  long peakHeld;
  long epochs;
  long lastDepth = -1;

  private final TierLedger heap = new TierLedger(Tier.HEAP, (768L << 20) / 2);
  private final Deque<TierLedger.Reservation> cached = new ArrayDeque<>();
  private volatile long hostAvailable = 768L << 20;
  private volatile long vramUsed = 3L << 30;
  // deltas for the site summary since its last run, guarded by this
  private long sAdmissions;
  private long sDeclines;
  private long sMaterialized;
  private long sAdmittedBytes;
  private long sDeclinedBytes;
  private long sMaterializedBytes;
  private long sReleasedBytes;
  private long sReleases;
  private final AtomicLong summaries = new AtomicLong();

  /**
   * Runs {@code steps} training steps over about {@code length} into {@code file}, with the
   * periodic events every {@code period}; {@code decisions} false leaves the per-decision events
   * off, as {@code decisions=off} does.
   */
  static TrainingScenario record(
      Path file, int steps, Duration length, Duration period, boolean decisions) throws Exception {
    stopOtherEnginesProbes();
    TrainingScenario s = new TrainingScenario();
    BudgetRecording recording = BudgetRecording.start(file);
    try {
      recording.recording().enable(MemoryProbeEvent.NAME).withPeriod(period);
      recording.recording().enable(SiteSummaryEvent.NAME).withPeriod(period);
      if (!decisions) {
        recording.recording().disable(CacheAdmissionEvent.NAME);
        recording.recording().disable(ReleaseEvent.NAME);
      }
      s.register();
      InstrumentedEvent.emit(
          "ai.djl.training.dataset.DataIterable", "app", "djl", "WOVEN", "<init> prefetch depth");
      InstrumentedEvent.emit(
          "com.acme.data.SampleCache", "app", SITE, "WOVEN", "put(Object,Object)");
      InstrumentedEvent.emit(
          "com.acme.data.Evictor",
          "app",
          SITE,
          "FAILED",
          "no method evict(java.lang.Object) in com.acme.data.Evictor");
      long pause = length.toNanos() / steps;
      for (int step = 0; step < steps; step++) {
        s.step(step, steps);
        long until = System.nanoTime() + pause;
        while (System.nanoTime() < until) {
          Thread.sleep(Math.max(1, pause / 4_000_000));
        }
      }
      s.awaitSummaries();
    } finally {
      recording.close();
      MemoryProbeEvent.unregister();
      SiteSummaryEvent.unregister();
      ConfigurationEvent.unregister();
    }
    return s;
  }

  /**
   * Stops the probe threads that engines of earlier tests in this JVM left running: each refresh
   * that moves a budget while a recording is on commits a {@code RamBudget} event, which would land
   * in this scenario's recording beside its own (a loop ends when its thread is interrupted).
   */
  private static void stopOtherEnginesProbes() throws InterruptedException {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("flodl-budget-probe")) {
        t.interrupt();
        t.join(TimeUnit.MINUTES.toMillis(1));
        if (t.isAlive()) {
          throw new IllegalStateException("a probe thread did not stop: " + t);
        }
      }
    }
  }

  private void register() {
    ConfigurationEvent.register(
        () -> {
          ConfigurationEvent.emit("mode", "enforce", "DEFAULT");
          ConfigurationEvent.emit("heap_max_usage", "0.5", "AGENT_ARGS");
          ConfigurationEvent.emit("prefetch", "cap", "DEFAULT");
          ConfigurationEvent.emit("sites", "sites.properties", "AGENT_ARGS");
          ConfigurationEvent.emit("vram_probe", "fixed:3G/" + VRAM_TOTAL, "SYSTEM_PROPERTY");
        });
    MemoryProbeEvent.register(
        e ->
            e.host(hostAvailable, -1, -1)
                .heap(4L << 30, (1L << 30) + heap.held())
                .tier("heap", hostAvailable, heap.held(), heap.budget())
                .vram(vramUsed, VRAM_TOTAL));
    SiteSummaryEvent.register(
        () -> {
          synchronized (this) {
            SiteSummaryEvent.emit(
                SITE,
                "heap",
                new SiteSummaryEvent.Counts(
                    sAdmissions,
                    sAdmittedBytes,
                    sMaterialized,
                    sMaterializedBytes,
                    sDeclines,
                    sDeclinedBytes,
                    0,
                    0,
                    0,
                    0,
                    sReleases,
                    sReleasedBytes,
                    0,
                    0),
                heap.held(),
                heap.held(),
                heap.budget());
            sAdmissions = sDeclines = sMaterialized = 0;
            sAdmittedBytes = sDeclinedBytes = sMaterializedBytes = sReleasedBytes = 0;
            sReleases = 0;
          }
          summaries.incrementAndGet();
        });
  }

  /**
   * One step: every 10th an epoch boundary (depth and ring), then four samples offered to the
   * cache.
   */
  private synchronized void step(int step, int steps) {
    double progress = (double) step / steps;
    hostAvailable = (768L << 20) - (long) (progress * (448L << 20));
    if (step % 10 == 0) {
      epochs++;
      vramUsed = (3L << 30) + (long) (progress * (2800L << 20));
      // The gate's own decision and events: DJL's epochs on a GPU, and a host reader ring.
      DepthDecision.Decision gpu =
          DepthDecision.decide(
              DepthDecision.Inputs.builder()
                  .cuda(true)
                  .requested(8)
                  .batchBytes(SAMPLE * 64)
                  .vramUsed(vramUsed)
                  .vramTotal(VRAM_TOTAL)
                  .vramMaxUsage(0.9)
                  .maxUsage(0.5)
                  .cacheActive(true)
                  .build());
      DecisionEvents.depth("djl", "cuda:0", 8, gpu);
      lastDepth = gpu.depth();
      DepthDecision.Decision ring =
          DepthDecision.decide(
              DepthDecision.Inputs.builder()
                  .requested(64)
                  .batchBytes(SAMPLE * 64)
                  .epochBatches(50)
                  .vramMaxUsage(0.9)
                  .available(OptionalLong.of(hostAvailable))
                  .maxUsage(0.5)
                  .cacheActive(true)
                  .build());
      DecisionEvents.depth("reader", "cpu", 64, ring);
    }
    RamBudget budget =
        TierBudget.of(Tier.HEAP, hostAvailable, heap.held(), heap.held(), 0.5, 1.0, 0);
    heap.setBudget(budget.budgetBytes());
    DecisionEvents.budget(Tier.HEAP, budget);
    for (int i = 0; i < 4; i++) {
      boolean view = (step * 4 + i) % 10 == 3;
      long logical = view ? SAMPLE / 4 : SAMPLE;
      long storage = SAMPLE;
      boolean materialize = BudgetPolicy.shouldMaterialize(logical, storage);
      long charged = BudgetPolicy.retainedCost(logical, storage);
      TierLedger.Admission a = heap.tryReserve(charged);
      String decision =
          !a.admitted()
              ? Decision.DECLINE.name()
              : materialize ? Decision.ADMIT_MATERIALIZED.name() : Decision.ADMIT.name();
      CacheAdmissionEvent.decided()
          .site(SITE)
          .tier("heap")
          .valueType(view ? "java.nio.HeapByteBuffer" : "byte[]")
          .logicalBytes(logical)
          .storageBytes(storage)
          .chargedBytes(charged)
          .materialized(materialize && a.admitted())
          .decision(decision)
          .heldBytes(a.heldAfter())
          .budgetBytes(a.budget())
          .availableBytes(hostAvailable)
          .emit();
      if (a.admitted()) {
        cached.add(a.reservation());
        admissions++;
        admittedBytes += charged;
        sAdmissions++;
        sAdmittedBytes += charged;
        peakHeld = Math.max(peakHeld, a.heldAfter());
        if (materialize) {
          materialized++;
          sMaterialized++;
          sMaterializedBytes += charged;
        }
      } else {
        declines++;
        declinedBytes += charged;
        sDeclines++;
        sDeclinedBytes += charged;
      }
    }
    if (step % 7 == 6 && !cached.isEmpty()) {
      TierLedger.Reservation evicted = cached.poll();
      evicted.release();
      releasedBytes += evicted.bytes();
      sReleasedBytes += evicted.bytes();
      sReleases++;
      ReleaseEvent.emit(
          SITE, "heap", evicted.bytes(), ReleaseCause.RELEASE_SITE.name(), heap.held());
    }
  }

  /** Waits until the site-summary emitter has run after the last step (its deltas are all out). */
  private void awaitSummaries() throws InterruptedException {
    long seen = summaries.get();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (summaries.get() < seen + 2 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
  }
}
