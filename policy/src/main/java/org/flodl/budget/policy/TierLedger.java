package org.flodl.budget.policy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The held-bytes ledger of one tier: what its caches retain, against the budget the last probe set.
 * Admissions from many threads never push the tier past its budget, and each {@link Reservation}
 * gives its bytes back exactly once.
 *
 * <p>The ledger is striped so that admissions on different threads do not write one shared counter:
 * the tier grants bytes to {@value #STRIPES} stripes ({@code granted}, never over the budget when
 * granted), and a thread reserves from its stripe's unused grant with one compare-and-set on that
 * stripe; a stripe that runs short takes what it needs, and up to {@value #GRANT} bytes more, from
 * the tier. Held bytes are the grants less what the stripes have unused. A release goes to the
 * releasing thread's stripe, which hands what it has over {@code 2 ×} {@value #GRANT} back to the
 * tier. When the grants reach the budget (or the budget shrinks below them), every stripe's unused
 * bytes go back to the tier and the decision is taken on the held bytes themselves, so the whole
 * budget stays usable. The grants change only under one lock (a stripe that runs short, that sweep,
 * a hand-back), so no other stripe is granted the swept bytes again before the decision is taken;
 * the reservations and releases within a stripe's grant, the common case, never take it. That lock
 * is a spin lock, not a monitor: what it guards is a few loads and stores (a sweep, 16 of each), no
 * thread ever parks on it (a monitor would pin a virtual thread's carrier before JDK 24, and park a
 * thousand virtual threads behind one), and no reader of the ledger takes it.
 *
 * <p>The budget is set from outside ({@link #setBudget}) when the probes refresh, anchored at the
 * held bytes of that moment; between refreshes it does not move, so held bytes that grow after a
 * probe never inflate it. A budget that shrinks below what is held stops admissions and evicts
 * nothing.
 */
public final class TierLedger {
  /** How many stripes hold grants. */
  static final int STRIPES = 16;

  /** The most a stripe takes from the tier beyond what a reservation needs. */
  static final long GRANT = 64 * 1024;

  /** Longs between two stripes' counters: 128 bytes, so no two share a cache line. */
  private static final int SPACING = 16;

  /** The most passes a reservation makes before it declines (each after a sweep that freed). */
  private static final int PASSES = 4;

  private final Tier tier;

  /** What the tier has granted to the stripes; changed only under {@link #grants}. */
  private final AtomicLong granted = new AtomicLong();

  private static final VarHandle GRANTS;

  static {
    try {
      GRANTS = MethodHandles.lookup().findVarHandle(TierLedger.class, "grants", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /**
   * The lock of every change to {@link #granted} (1 while held): a stripe that runs short, a sweep,
   * a hand-back. A reservation from a stripe's unused bytes and a release into them never take it.
   */
  @SuppressWarnings("unused") // through GRANTS
  private volatile int grants;

  /**
   * Each stripe's granted bytes not yet reserved, at index {@code stripe × SPACING}, and next to
   * them the reservations that lost the stripe's compare-and-set to another thread.
   */
  private final AtomicLongArray unused;

  private final int stripes;

  /** The sweeps made (changed under {@link #grants}). */
  private long sweeps;

  private volatile long budget;

  /** Returns a ledger for {@code tier} whose budget is {@code initialBudget} until set. */
  public TierLedger(Tier tier, long initialBudget) {
    this(tier, initialBudget, STRIPES);
  }

  /**
   * Returns a ledger of {@code stripes} stripes (a power of two, at most {@value #STRIPES}): the
   * concurrency tests' one stripe, which every thread reserves from and releases to.
   */
  TierLedger(Tier tier, long initialBudget, int stripes) {
    this.tier = tier;
    this.budget = Math.max(0, initialBudget);
    this.stripes = stripes;
    this.unused = new AtomicLongArray(stripes * SPACING);
  }

  /** Returns the tier. */
  public Tier tier() {
    return tier;
  }

  /**
   * Returns the bytes held now: the grants less what the stripes have unused (exact when nothing
   * runs concurrently; a reservation or release under way is counted or not).
   */
  public long held() {
    long spare = 0;
    for (int i = 0; i < stripes; i++) {
      spare += unused.get(i * SPACING);
    }
    return Math.max(0, granted.get() - spare);
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
    long b = budget;
    long after = reserve(cost, b);
    if (after < 0) {
      return new Admission(null, declinedAt(after), b);
    }
    return new Admission(new Reservation(this, cost), after, b);
  }

  /**
   * The allocation-free form of {@link #tryReserve} for a caller that keeps its own record of what
   * it reserved and gives it back exactly once ({@link #giveBack}): returns the held bytes after
   * the reservation (at most: the tier's grants less this thread's stripe's unused bytes, exact
   * when one thread reserves and releases), or, when {@code bytes} do not fit, a negative number
   * from which {@link #declinedAt} recovers the held bytes the decline saw. A decline changes
   * nothing.
   */
  public long reserve(long bytes) {
    return reserve(bytes, Long.MIN_VALUE);
  }

  /**
   * {@link #reserve(long)} against {@code limit}, the budget the caller read before and reports
   * with the decision (so that its record says {@code held <= budget} even when a refresh moves the
   * budget meanwhile); {@link Long#MIN_VALUE} checks against the budget as it is at each try.
   */
  public long reserve(long bytes, long limit) {
    long cost = Math.max(0, bytes);
    int slot = slot();
    long b = limit == Long.MIN_VALUE ? budget : limit;
    // The common case: this stripe has the bytes unused, and the tier's grants are within the
    // budget (so what is held, at most the grants, stays within it too).
    long g = granted.get();
    if (g <= b) {
      long u = unused.get(slot);
      if (u >= cost) {
        if (unused.compareAndSet(slot, u, u - cost)) {
          return Math.max(0, g - (u - cost));
        }
        unused.getAndIncrement(slot + 1); // a collision, counted on the stripe's own cache line
      }
    }
    return reserveSlow(slot, cost, limit);
  }

  private long reserveSlow(int slot, long cost, long limit) {
    // This stripe has the bytes and the grants are within the budget: only its compare-and-set
    // raced (another thread of the stripe, or a release), so try again without the lock.
    for (; ; ) {
      long b = limit == Long.MIN_VALUE ? budget : limit;
      long g = granted.get();
      long u = unused.get(slot);
      if (g > b || u < cost) {
        break;
      }
      if (unused.compareAndSet(slot, u, u - cost)) {
        return Math.max(0, g - (u - cost));
      }
    }
    lockGrants();
    try {
      return reserveFromTier(slot, cost, limit);
    } finally {
      GRANTS.setRelease(this, 0);
    }
  }

  /** Takes the grants' lock: spins, then yields the processor (see {@link SpinWait}). */
  private void lockGrants() {
    long since = 0;
    for (int tries = 0; !GRANTS.compareAndSet(this, 0, 1); tries++) {
      since = SpinWait.pause(tries, since);
    }
  }

  /**
   * Takes what the reservation needs from the tier, under the grants' lock: every change to {@code
   * granted} is made under it, so a sweep here hands back bytes that no other stripe can be granted
   * again before this decision is taken, and a decline is taken on the bytes held (those of
   * releases under way counted or not).
   */
  private long reserveFromTier(int slot, long cost, long limit) {
    for (int pass = 0; ; ) {
      long b = limit == Long.MIN_VALUE ? budget : limit;
      long g = granted.get();
      long u = unused.get(slot);
      if (g <= b) {
        if (u >= cost) {
          if (unused.compareAndSet(slot, u, u - cost)) {
            return Math.max(0, g - (u - cost));
          }
          continue;
        }
        // this stripe's unused bytes and the rest from the tier, with a grant ahead if it fits
        long upTo = Saturating.add(g, cost - u);
        if (upTo <= b) {
          if (!unused.compareAndSet(slot, u, 0)) {
            continue; // a release on this stripe added to it, or a reservation took some
          }
          long extra = Saturating.add(upTo, GRANT) <= b ? GRANT : 0;
          granted.set(upTo + extra); // only this lock's holder changes the grants
          if (extra > 0) {
            unused.addAndGet(slot, extra);
          }
          return upTo;
        }
      }
      // The grants are at the budget: every stripe's unused bytes go back to the tier and the
      // reservation is tried again on what is held; it declines when nothing came back (or
      // releases keep coming back while the tier stays at its budget).
      if (pass++ < PASSES && sweep() > 0) {
        continue;
      }
      return -1 - held();
    }
  }

  /** Hands every stripe's unused bytes back to the tier; returns how many. Under the lock. */
  private long sweep() {
    sweeps++;
    long back = 0;
    for (int i = 0; i < stripes; i++) {
      long u = unused.getAndSet(i * SPACING, 0);
      back += u;
    }
    if (back > 0) {
      granted.addAndGet(-back);
    }
    return back;
  }

  /** Returns the calling thread's stripe counter index. */
  private int slot() {
    long id = Thread.currentThread().getId();
    return ((int) ((id * 0x9E3779B97F4A7C15L) >>> 60) & (stripes - 1)) * SPACING; // 4 bits
  }

  /**
   * Returns the sweeps made (exact when nothing runs concurrently; the concurrency tests' view).
   */
  long sweeps() {
    return sweeps;
  }

  /** Returns the reservations that lost their stripe's compare-and-set to another thread. */
  long collisions() {
    long n = 0;
    for (int i = 0; i < stripes; i++) {
      n += unused.get(i * SPACING + 1);
    }
    return n;
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
    long b = Math.max(0, bytes);
    if (b == 0) {
      return;
    }
    int slot = slot();
    if (unused.addAndGet(slot, b) > 2 * GRANT) {
      handBack(slot);
    }
  }

  /** Keeps one grant's worth of {@code slot}'s unused bytes and hands the rest back to the tier. */
  private void handBack(int slot) {
    lockGrants();
    try {
      long u = unused.get(slot);
      while (u > 2 * GRANT && !unused.compareAndSet(slot, u, GRANT)) {
        u = unused.get(slot);
      }
      if (u > 2 * GRANT) {
        granted.addAndGet(-(u - GRANT));
      }
    } finally {
      GRANTS.setRelease(this, 0);
    }
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
