package org.flodl.budget.policy;

import static org.flodl.budget.agent.gate.ModelChecks.scenario;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.gate.ModelChecks;
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
 * The tier ledger under every interleaving a model checker explores, and under real threads: many
 * threads reserve (a few grants' worth, so the stripe runs short and sweeps happen), release (once,
 * or twice, which gives back once), change the budget and read, all on one stripe (in the agent,
 * the threads whose hashes share a stripe), so that every reservation and release races the others
 * on that stripe's unused bytes. What it promises: held bytes never over the largest budget set, at
 * any point a reader sees them ({@link #withinBudget}); a {@code Reservation} released twice gives
 * back once ({@link #releaseTwice}); and at quiescence ({@link #quiescent}) the held bytes are
 * exactly what was reserved and not given back, a decline having changed nothing. It promises no
 * more than that (a reservation may decline while a release races it), so no sequential answer is
 * asked of a reservation.
 *
 * <p>It guards against a reservation that takes bytes a sweep has handed back, or loses them to it
 * ({@link #aReservationRacingASweepIsCounted}), and against two reservations that take the same
 * unused bytes of their stripe ({@link #reservationsRacingOnAStripeAreCounted}); each run asserts
 * that it met the sweeps and the collisions on the stripe it claims (every decline sweeps first:
 * each invocation asserts that too).
 */
@Param(name = "bytes", gen = IntGen.class, conf = "1:150000")
@Param(name = "budget", gen = IntGen.class, conf = "100000:400000")
public class TierLedgerLincheckTest {
  private static final long BUDGET = 3 * TierLedger.GRANT;

  private static final String SWEEPS = "ledger: sweeps";
  private static final String COLLISIONS = "ledger: reservations that lost their stripe's CAS";

  private final TierLedger ledger = new TierLedger(Tier.HEAP, BUDGET, 1);
  private final ConcurrentLinkedQueue<TierLedger.Reservation> held = new ConcurrentLinkedQueue<>();
  private final AtomicLong outstanding = new AtomicLong();
  private final AtomicLong largestBudget = new AtomicLong(BUDGET);
  private final AtomicLong declines = new AtomicLong();

  @Operation
  public void reserve(@Param(name = "bytes") int bytes) {
    TierLedger.Admission a = ledger.tryReserve(bytes);
    if (a.admitted()) {
      outstanding.addAndGet(bytes);
      held.add(a.reservation());
    } else {
      declines.incrementAndGet();
    }
  }

  @Operation
  public void release() {
    TierLedger.Reservation r = held.poll();
    if (r != null && r.release()) {
      outstanding.addAndGet(-r.bytes());
    }
  }

  /** Returns whether a reservation released twice gave back once (true where none is held). */
  @Operation
  public boolean releaseTwice() {
    TierLedger.Reservation r = held.poll();
    if (r == null) {
      return true;
    }
    boolean first = r.release();
    boolean second = r.release();
    if (first) {
      outstanding.addAndGet(-r.bytes());
    }
    return first && !second;
  }

  @Operation
  public void setBudget(@Param(name = "budget") int budget) {
    largestBudget.accumulateAndGet(budget, Math::max);
    ledger.setBudget(budget);
  }

  /** Returns whether the held bytes a reader sees are within the largest budget ever set. */
  @Operation
  public boolean withinBudget() {
    return ledger.held() <= largestBudget.get();
  }

  @Validate
  public void quiescent() {
    if (ledger.held() != outstanding.get()) {
      throw new IllegalStateException(
          "held " + ledger.held() + " bytes, reserved and not given back " + outstanding.get());
    }
    if (declines.get() > 0 && ledger.sweeps() == 0) {
      throw new IllegalStateException(declines.get() + " declines without a sweep");
    }
    ModelChecks.count(SWEEPS, ledger.sweeps());
    ModelChecks.count(COLLISIONS, ledger.collisions());
  }

  /**
   * A sweep hands the stripe's unused bytes back to the tier while a reservation takes some of them
   * without the lock: 60,000 bytes held and a grant unused, then a reservation that cannot fit
   * (sweeps, then declines) against one that fits in the grant.
   */
  @Test
  void aReservationRacingASweepIsCounted() {
    ModelChecks.check(
        TierLedgerLincheckTest.class,
        scenario(
            List.of(op("reserve", 60_000)),
            List.of(List.of(op("reserve", 150_000)), List.of(op("reserve", 1_000)))),
        200,
        SWEEPS,
        COLLISIONS);
  }

  /** Two reservations take from the one stripe's unused bytes at once. */
  @Test
  void reservationsRacingOnAStripeAreCounted() {
    ModelChecks.check(
        TierLedgerLincheckTest.class,
        scenario(
            List.of(op("reserve", 60_000)),
            List.of(List.of(op("reserve", 1_000), op("release")), List.of(op("reserve", 2_000)))),
        200,
        COLLISIONS);
  }

  private static Actor op(String name, int... args) {
    return ModelChecks.actor(TierLedgerLincheckTest.class, name, args);
  }

  @Test
  void modelChecking() {
    ModelChecks.clear();
    new ModelCheckingOptions()
        .iterations(30)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(3)
        .addGuarantee(ModelChecks.outsideAnalysis())
        .check(TierLedgerLincheckTest.class);
    ModelChecks.assertRan(SWEEPS, COLLISIONS);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(20)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(4)
        .check(TierLedgerLincheckTest.class);
  }

  @Tag("lincheck-large")
  @Test
  void modelCheckingLarger() {
    new ModelCheckingOptions()
        .iterations(100)
        .invocationsPerIteration(1000)
        .threads(3)
        .actorsPerThread(5)
        .check(TierLedgerLincheckTest.class);
  }

  @Test
  void aSequentialRunHoldsWhatItReserved() {
    TierLedgerLincheckTest t = new TierLedgerLincheckTest();
    t.reserve(1000);
    t.reserve(200_000);
    t.release();
    t.quiescent();
    assertEquals(0, t.ledger.held() - t.outstanding.get());
  }
}
