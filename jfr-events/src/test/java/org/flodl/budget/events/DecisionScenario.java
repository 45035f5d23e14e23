package org.flodl.budget.events;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicInteger;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.RingSlots;
import org.flodl.budget.policy.StagerSplit;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;

/**
 * Real budget decisions taken by the policy and a ledger, each committed as its event under
 * flodl-budget.jfc, the periodic events fed by registered fillers, and the recording written to a
 * file: what the tests read back with the JDK's parser, the jfr tool and Mission Control's.
 */
final class DecisionScenario {
  static final String SITE = "samples";
  static final long AVAILABLE = 1_000_000;
  static final long VALUE = 100_000;
  static final long VIEW_LOGICAL = 10_000;
  static final long VIEW_STORAGE = 100_000;

  final List<String> decisions = new ArrayList<>();
  final List<Long> heldAfter = new ArrayList<>();
  RamBudget budget;
  PrefetchDepth depth;
  PrefetchDepth capped;
  RingSlots ring;
  StagerSplit split;
  long releasedBytes;
  long heldAfterRelease;

  private static DecisionScenario shared;
  private static Path sharedFile;

  /** Returns the scenario every test class of this JVM reads, recorded once. */
  static synchronized DecisionScenario shared() throws Exception {
    if (shared == null) {
      Path dir = java.nio.file.Files.createTempDirectory("flodl-events");
      dir.toFile().deleteOnExit();
      sharedFile = dir.resolve("budget.jfr");
      sharedFile.toFile().deleteOnExit();
      shared = record(sharedFile);
    }
    return shared;
  }

  /** Returns the file {@link #shared()} was recorded to. */
  static synchronized Path sharedFile() throws Exception {
    shared();
    return sharedFile;
  }

  /** Returns the parsed flodl-budget.jfc shipped in this module's jar. */
  static Configuration settings() throws IOException, ParseException {
    try (InputStream in = CacheAdmissionEvent.class.getResourceAsStream("/flodl-budget.jfc");
        Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return Configuration.create(reader);
    }
  }

  /** Records the scenario under flodl-budget.jfc into {@code file}. */
  static DecisionScenario record(Path file) throws Exception {
    DecisionScenario s = new DecisionScenario();
    AtomicInteger probes = new AtomicInteger();
    AtomicInteger summaries = new AtomicInteger();
    try (Recording recording = new Recording(settings())) {
      recording.enable(MemoryProbeEvent.NAME).withPeriod(Duration.ofMillis(50));
      recording.enable(SiteSummaryEvent.NAME).withPeriod(Duration.ofMillis(50));
      recording.start();
      ConfigurationEvent.register(
          () -> {
            ConfigurationEvent.emit("mode", "enforce", "DEFAULT");
            ConfigurationEvent.emit("heap_max_usage", "0.5", "AGENT_ARGS");
          });
      InstrumentedEvent.emit(
          "com.acme.data.SampleCache", "app", SITE, "WOVEN", "put(Object,Object)");
      s.decide();
      MemoryProbeEvent.register(
          e -> {
            e.host(AVAILABLE, -1, -1).heap(4 * AVAILABLE, 3 * AVAILABLE);
            e.tier("heap", AVAILABLE, s.heldAfterRelease, s.budget.budgetBytes())
                .vram(5592L << 20, 6360465408L);
            probes.incrementAndGet();
          });
      SiteSummaryEvent.register(
          () -> {
            SiteSummaryEvent.emit(
                SITE,
                "heap",
                new SiteSummaryEvent.Counts(
                    5, 410_000, 1, VIEW_LOGICAL, 1, VALUE, 0, 0, 0, 0, 1, s.releasedBytes, 0, 0),
                410_000 - s.releasedBytes,
                s.heldAfterRelease,
                s.budget.budgetBytes());
            summaries.incrementAndGet();
          });
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while ((probes.get() < 2 || summaries.get() < 2) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      recording.stop();
      recording.dump(file);
    } finally {
      MemoryProbeEvent.unregister();
      SiteSummaryEvent.unregister();
      ConfigurationEvent.unregister();
    }
    return s;
  }

  /**
   * Takes the decisions: a heap budget, four values and a view admitted, one declined, one
   * released.
   */
  private void decide() {
    budget = BudgetPolicy.anchored(AVAILABLE, 0, 0.5, 1.0, 0, "heap_max_usage");
    RamBudgetEvent.emit(
        Tier.HEAP.label(),
        budget.availableBytes(),
        budget.heldBytes(),
        budget.maxUsage(),
        budget.hostShare(),
        budget.ringBytes(),
        budget.budgetBytes());
    TierLedger ledger = new TierLedger(Tier.HEAP, budget.budgetBytes());
    TierLedger.Reservation first = null;
    for (int i = 0; i < 6; i++) {
      boolean view = i == 2;
      long logical = view ? VIEW_LOGICAL : VALUE;
      long storage = view ? VIEW_STORAGE : VALUE;
      boolean materialize = BudgetPolicy.shouldMaterialize(logical, storage);
      long charged = BudgetPolicy.retainedCost(logical, storage);
      TierLedger.Admission a = ledger.tryReserve(charged);
      String decision = !a.admitted() ? "DECLINE" : materialize ? "ADMIT_MATERIALIZED" : "ADMIT";
      CacheAdmissionEvent.decided()
          .site(SITE)
          .tier(Tier.HEAP.label())
          .valueType(view ? "java.nio.HeapByteBuffer" : "byte[]")
          .logicalBytes(logical)
          .storageBytes(storage)
          .chargedBytes(charged)
          .materialized(materialize && a.admitted())
          .decision(decision)
          .heldBytes(a.heldAfter())
          .budgetBytes(a.budget())
          .availableBytes(AVAILABLE)
          .emit();
      decisions.add(decision);
      heldAfter.add(a.heldAfter());
      if (first == null) {
        first = a.reservation();
      }
    }
    first.release();
    releasedBytes = first.bytes();
    heldAfterRelease = ledger.held();
    ReleaseEvent.emit(SITE, Tier.HEAP.label(), releasedBytes, "RELEASE_SITE", heldAfterRelease);

    depth = BudgetPolicy.prefetchDepthFromVram(1 << 20, 32, true, 5592L << 20, 6360465408L, 0.9, 0);
    capped = depth.cappedAt(4);
    PrefetchDepthEvent.emit(
        "djl",
        "cuda:0",
        capped.usedBytes(),
        capped.totalBytes(),
        capped.maxUsage(),
        capped.activationReserve(),
        capped.batchBytes(),
        4,
        capped.depth(),
        capped.reason().name());
    ring =
        BudgetPolicy.ringSlotsFromRam(
            1 << 20, 32, 0.5, OptionalLong.of(AVAILABLE << 10), 100, true);
    RingSlotsEvent.emit(
        "djl",
        ring.perSampleBytes(),
        ring.batchSize(),
        ring.ramMaxUsage(),
        ring.availableBytes(),
        ring.epochBatches(),
        ring.cacheActive(),
        ring.budgetBytes(),
        ring.slots(),
        ring.reason().name());
    split = BudgetPolicy.splitStagerBudget(1003);
    StagerSplitEvent.emit(split.totalBytes(), split.pinnedBytes(), split.streamBytes());
  }
}
