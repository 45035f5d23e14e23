package org.flodl.budget.agent.gate;

import static org.flodl.budget.agent.gate.ModelChecks.scenario;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A holdings segment and its releases under every interleaving a model checker explores, and under
 * real threads: values of one segment (in the agent, those whose hashes share its low bits) are
 * linked (their bytes reserved first, as an admission does), released by a site (unlinked, marked
 * {@code RELEASED}, its bytes given back), dropped and collected (the collector's part played as it
 * plays it, once no thread holds the value: its reference cleared and enqueued, whether the holding
 * is still linked or a site unlinked it before) and handed back by the releaser's step (a queued
 * holding not marked released gives its bytes back), and the table is swept. The segment starts at
 * one bucket, holding a value of its own for good, so the first value a scenario links doubles it
 * and the second doubles it again: its chains and its resizes race the collector and the other
 * threads. What it promises: each holding's bytes come back exactly once, by a site or by
 * collection, never both ({@link #quiescent}: the tier holds what the linked holdings hold, and the
 * site counted one release for each holding that left the table).
 *
 * <p>It guards against a resize that loses a holding (its charge never given back) and against a
 * site's release and a collection that both give a holding's bytes back ({@link
 * #aResizeRacingReleasesAndCollectionsKeepsEachChargeOnce}). Each invocation asserts that the
 * segment resized exactly when a scenario linked a value, and each run that it met resizes and
 * threads waiting for the segment's lock.
 */
@Param(name = "value", gen = IntGen.class, conf = "0:2")
public class HoldingTableLincheckTest {
  private static final int VALUES = 3;
  private static final long BYTES = 1000;
  private static final String RESIZES = "holdings: resizes";
  private static final String WAITS = "holdings: waits for a segment's lock";

  private final HoldingTable table = new HoldingTable(1);
  private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
  private final TierLedger ledger = new TierLedger(Tier.HEAP, 1L << 40);
  private final CacheSite site = new CacheSite("lincheck", 0);
  private final Account account = site.account(ledger);
  private final Object[] values = new Object[VALUES];

  /** A value linked for good before the scenario: the segment's one bucket is full. */
  private final Object resident = new Object();

  /** The last holding linked for each value, as the collector would find it. */
  private final AtomicReferenceArray<Holding> holdings = new AtomicReferenceArray<>(VALUES);

  /** Values the application dropped: never linked or released again, collectable when unused. */
  private final AtomicIntegerArray dead = new AtomicIntegerArray(VALUES);

  /**
   * Threads inside an operation on each value: they hold it, so the collector cannot find it
   * unreachable then (a site releases a value it holds; it cannot be collected under it).
   */
  private final AtomicIntegerArray inUse = new AtomicIntegerArray(VALUES);

  private final AtomicLong linked = new AtomicLong();

  public HoldingTableLincheckTest() {
    for (int i = 0; i < VALUES; i++) {
      values[i] = new Object();
    }
    ledger.reserve(BYTES);
    table.link(resident, System.identityHashCode(resident), queue, account, BYTES);
    linked.incrementAndGet();
  }

  /** Returns value {@code i}'s hash: its identity hash, as a segment rehashes it when resizing. */
  private int hash(int i) {
    return System.identityHashCode(values[i]);
  }

  @Operation
  public void link(@Param(name = "value") int i) {
    inUse.incrementAndGet(i);
    try {
      if (dead.get(i) != 0) {
        return;
      }
      ledger.reserve(BYTES);
      if (table.link(values[i], hash(i), queue, account, BYTES)) {
        linked.incrementAndGet();
        holdings.set(i, table.holding(values[i], hash(i)));
      } else {
        ledger.giveBack(BYTES); // held already: charged once
      }
    } finally {
      inUse.decrementAndGet(i);
    }
  }

  @Operation
  public void releaseBySite(@Param(name = "value") int i) {
    inUse.incrementAndGet(i);
    try {
      if (dead.get(i) != 0) {
        return;
      }
      Holding h = table.unlinkValue(values[i], hash(i));
      if (h != null) {
        h.release(CacheSite.RELEASE_SITE, GateThread.current());
      }
    } finally {
      inUse.decrementAndGet(i);
    }
  }

  /**
   * The application drops value {@code i}; where no thread holds it, the collector finds it
   * unreachable and clears and enqueues its last holding (linked, or unlinked by a site before).
   */
  @Operation
  public void collect(@Param(name = "value") int i) {
    if (!dead.compareAndSet(i, 0, 1) || inUse.get(i) != 0) {
      return; // dropped already, or still held by a thread: not unreachable yet
    }
    Holding h = holdings.get(i);
    if (h != null) {
      h.clear();
      h.enqueue();
    }
  }

  /** The releaser's step: each queued holding not released by a site gives its bytes back. */
  @Operation
  public void releaseCollected() {
    for (Reference<?> r = queue.poll(); r != null; r = queue.poll()) {
      if (r instanceof Holding h && Holding.NEXT.getAcquire(h) != Holding.RELEASED) {
        h.release(CacheSite.COLLECTED, GateThread.current());
      }
    }
  }

  @Operation
  public void sweep() {
    table.unlinkCollected();
  }

  @Validate
  public void quiescent() {
    releaseCollected();
    table.unlinkCollected();
    int live = table.live();
    if (ledger.held() != live * BYTES) {
      throw new IllegalStateException(
          "the tier holds " + ledger.held() + " bytes for " + live + " holdings linked");
    }
    SiteTotals t = site.totalsNow();
    long released = t.counts().releases();
    if (released != linked.get() - live) {
      throw new IllegalStateException(
          released + " releases for " + (linked.get() - live) + " holdings that left the table");
    }
    int resizes = table.resizes();
    if ((linked.get() > 1) != resizes > 0) { // the resident's link and this scenario's
      throw new IllegalStateException(resizes + " resizes for " + linked.get() + " links");
    }
    ModelChecks.count(RESIZES, resizes);
    ModelChecks.count(WAITS, table.waits());
  }

  /**
   * Three threads link, release by site, collect and hand back while the segment doubles from one
   * bucket to two and four: a resize that dropped a live holding would never give its charge back,
   * a release by a site and by collection of one holding would give it back twice.
   */
  @Test
  void aResizeRacingReleasesAndCollectionsKeepsEachChargeOnce() {
    ModelChecks.check(
        HoldingTableLincheckTest.class,
        scenario(
            List.of(),
            List.of(
                List.of(op("link", 0), op("link", 2)),
                List.of(op("link", 1), op("releaseBySite", 0)),
                List.of(op("collect", 2), op("releaseCollected")))),
        300,
        RESIZES,
        WAITS);
  }

  private static Actor op(String name, int... args) {
    return ModelChecks.actor(HoldingTableLincheckTest.class, name, args);
  }

  @Test
  void modelChecking() {
    ModelChecks.clear();
    new ModelCheckingOptions()
        .iterations(20)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(3)
        .addGuarantee(ModelChecks.outsideAnalysis())
        .check(HoldingTableLincheckTest.class);
    ModelChecks.assertRan(RESIZES, WAITS);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(4)
        .check(HoldingTableLincheckTest.class);
  }

  @Tag("lincheck-large")
  @Test
  void modelCheckingLarger() {
    new ModelCheckingOptions()
        .iterations(150)
        .invocationsPerIteration(1000)
        .threads(3)
        .actorsPerThread(5)
        .check(HoldingTableLincheckTest.class);
  }
}
