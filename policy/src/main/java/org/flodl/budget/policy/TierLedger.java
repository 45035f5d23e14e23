package org.flodl.budget.policy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The held-bytes ledger of one tier: what its caches retain, against the budget the last probe
 * set. Reservations are atomic (a compare-and-set loop), so admissions from many threads never
 * push the tier past its budget; each {@link Reservation} gives its bytes back exactly once.
 *
 * <p>The budget is set from outside ({@link #setBudget}) when the probes refresh, anchored at the
 * held bytes of that moment; between refreshes it does not move, so held bytes that grow after a
 * probe never inflate it. A budget that shrinks below what is held stops admissions and evicts
 * nothing.
 */
public final class TierLedger {
  private final Tier tier;
  private final AtomicLong held = new AtomicLong();
  private volatile long budget;

  /** Returns a ledger for {@code tier} whose budget is {@code initialBudget} until set. */
  public TierLedger(Tier tier, long initialBudget) {
    this.tier = tier;
    this.budget = Math.max(0, initialBudget);
  }

  /** Returns the tier. */
  public Tier tier() {
    return tier;
  }

  /** Returns the bytes held now. */
  public long held() {
    return held.get();
  }

  /** Returns the budget in force. */
  public long budget() {
    return budget;
  }

  /** Sets the budget (a probe refresh). Never evicts. */
  public void setBudget(long bytes) {
    budget = Math.max(0, bytes);
  }

  /**
   * Returns an admission of {@code bytes} if they fit under the budget with what is held, or a
   * declined result holding the numbers it saw; a decline changes nothing.
   */
  public Admission tryReserve(long bytes) {
    long cost = Math.max(0, bytes);
    long after = reserve(cost);
    if (after < 0) {
      return new Admission(null, declinedAt(after), budget);
    }
    return new Admission(new Reservation(this, cost), after, budget);
  }

  /**
   * The allocation-free form of {@link #tryReserve} for a caller that keeps its own record of
   * what it reserved and gives it back exactly once ({@link #giveBack}): returns the held bytes
   * after the reservation, or, when {@code bytes} do not fit, a negative number from which
   * {@link #declinedAt} recovers the held bytes the decline saw. A decline changes nothing.
   */
  public long reserve(long bytes) {
    return reserve(bytes, Long.MIN_VALUE);
  }

  /**
   * {@link #reserve(long)} against {@code limit}, the budget the caller read before and reports
   * with the decision (so that its record says {@code held <= budget} even when a refresh moves
   * the budget meanwhile); {@link Long#MIN_VALUE} checks against the budget as it is at each try.
   */
  public long reserve(long bytes, long limit) {
    long cost = Math.max(0, bytes);
    while (true) {
      long b = limit == Long.MIN_VALUE ? budget : limit;
      long h = held.get();
      long after = Saturating.add(h, cost);
      if (after > b) {
        return -1 - h;
      }
      if (held.compareAndSet(h, after)) {
        return after;
      }
    }
  }

  /** Returns the held bytes a declined {@link #reserve} saw, from its negative result. */
  public static long declinedAt(long reserveResult) {
    return -1 - reserveResult;
  }

  /**
   * Gives back bytes taken by {@link #reserve}. The caller guarantees once per reservation (a
   * {@link Reservation} does it for {@link #tryReserve}).
   */
  public void giveBack(long bytes) {
    held.addAndGet(-Math.max(0, bytes));
  }

  /**
   * The outcome of {@link #tryReserve}: the reservation (null when declined), the held bytes after
   * the decision and the budget it was taken against.
   */
  public record Admission(Reservation reservation, long heldAfter, long budget) {
    /** Returns whether the bytes were reserved. */
    public boolean admitted() {
      return reservation != null;
    }
  }

  /** Bytes reserved in a ledger, handed back exactly once however often release is called. */
  public static final class Reservation {
    private final TierLedger ledger;
    private final long bytes;
    private final AtomicBoolean done = new AtomicBoolean();

    private Reservation(TierLedger ledger, long bytes) {
      this.ledger = ledger;
      this.bytes = bytes;
    }

    /** Returns the bytes reserved. */
    public long bytes() {
      return bytes;
    }

    /** Returns the tier. */
    public Tier tier() {
      return ledger.tier;
    }

    /** Returns whether the bytes have been given back. */
    public boolean isReleased() {
      return done.get();
    }

    /** Gives the bytes back; returns true the first time only. */
    public boolean release() {
      if (done.compareAndSet(false, true)) {
        ledger.giveBack(bytes);
        return true;
      }
      return false;
    }
  }
}
