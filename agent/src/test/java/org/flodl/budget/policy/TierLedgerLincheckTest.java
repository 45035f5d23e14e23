package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
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
 * threads reserve (a few grants' worth, so stripes run short and sweeps happen), release (once, or
 * twice, which gives back once), change the budget and read. What it promises: held bytes never
 * over the largest budget set, at any point a reader sees them ({@link #withinBudget}); a {@code
 * Reservation} released twice gives back once ({@link #releaseTwice}); and at quiescence ({@link
 * #quiescent}) the held bytes are exactly what was reserved and not given back, a decline having
 * changed nothing. It promises no more than that (a reservation may decline while a release races
 * it), so no sequential answer is asked of a reservation.
 */
@Param(name = "bytes", gen = IntGen.class, conf = "1:150000")
@Param(name = "budget", gen = IntGen.class, conf = "100000:400000")
public class TierLedgerLincheckTest {
  private static final long BUDGET = 3 * TierLedger.GRANT;

  private final TierLedger ledger = new TierLedger(Tier.HEAP, BUDGET);
  private final ConcurrentLinkedQueue<TierLedger.Reservation> held = new ConcurrentLinkedQueue<>();
  private final AtomicLong outstanding = new AtomicLong();
  private final AtomicLong largestBudget = new AtomicLong(BUDGET);

  @Operation
  public void reserve(@Param(name = "bytes") int bytes) {
    TierLedger.Admission a = ledger.tryReserve(bytes);
    if (a.admitted()) {
      outstanding.addAndGet(bytes);
      held.add(a.reservation());
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
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(30)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(3)
        .check(TierLedgerLincheckTest.class);
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
