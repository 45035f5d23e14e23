package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLongArray;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.ReleaseCause;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;

/**
 * A cache-admit site at run time: its name, its index (its nesting counter per thread), its ledger
 * of decisions and releases, and the sampler that chooses which of them a recording gets as
 * per-decision events: one job, the books of a site (ledger and sampler share its cells).
 *
 * <p>The ledger is a {@link Tally}: per tier and kind a count and bytes, added by the deciding
 * thread to its cell (one atomic add for both, see {@link Tally#addPair}; the cells are sized by
 * the CPUs, not by the threads that decide). The periodic summary drains it (the {@code
 * SiteSummary} event: exact counts whatever is sampled).
 *
 * <p>The sampler keeps, per cell, tier and kind, the count at which the cell's last event of that
 * kind was committed (its mark). A decision is due an event when its cell has counted {@code
 * every[kind]} since the mark; the event then stands for the count since the mark, which the
 * deciding thread takes by moving the mark up with a compare-and-set, so the events' weights add up
 * to the counts exactly: the periodic close takes what is left since each mark the same way and
 * reports it as one event per tier and kind. {@code every} is set each period from the last
 * period's count and the throttle (N events a second per site and kind); within a period a kind
 * commits at most the throttle's worth, then waits for the next period. No lock is taken on the
 * deciding side: the close's monitor guards the close alone.
 */
final class CacheSite {
  /** The kinds a site counts: its decisions (unpriced ones apart) and the causes of releases. */
  static final int ADMIT = 0;

  static final int MATERIALIZED = 1;
  static final int DECLINE = 2;
  static final int WOULD_DECLINE = 3;
  static final int ALREADY_HELD = 4;
  static final int UNPRICED_DECLINE = 5;
  static final int UNPRICED_WOULD_DECLINE = 6;
  static final int RELEASE_SITE = 7;
  static final int COLLECTED = 8;
  static final int CALL_THREW = 9;
  static final int KINDS = 10;

  /** The first kind of release: kinds before it are CacheAdmission events, from it Release ones. */
  static final int FIRST_RELEASE = RELEASE_SITE;

  /** Each kind's name in its event's decision (or cause) field, as jfr-events spells them. */
  static final String[] NAMES = {
    Decision.ADMIT.name(),
    Decision.ADMIT_MATERIALIZED.name(),
    Decision.DECLINE.name(),
    Decision.WOULD_DECLINE.name(),
    Decision.ALREADY_HELD.name(),
    Decision.DECLINE.name(),
    Decision.WOULD_DECLINE.name(),
    ReleaseCause.RELEASE_SITE.name(),
    ReleaseCause.COLLECTED.name(),
    ReleaseCause.CALL_THREW.name()
  };

  private static final int TIERS = Tier.values().length;
  // A cell: per tier and kind a pair of a count and its bytes (the tally's pairs, first), then per
  // tier the estimated count, then per tier and kind the sampler's mark. A tier's slice of counts
  // (see slice) is each kind's count and bytes, then the estimated count.
  private static final int PAIRS = TIERS * KINDS;
  private static final int ESTIMATED = 2 * PAIRS;
  private static final int MARKS = ESTIMATED + TIERS;
  private static final int SLICE_ESTIMATED = 2 * KINDS;
  private static final VarHandle EVERY = MethodHandles.arrayElementVarHandle(int[].class);

  /** What the periodic close hands the summary: one tier's counts and the site's held bytes. */
  record Tiered(Tier tier, SiteSummaryEvent.Counts counts, long siteHeldBytes) {}

  /**
   * The last event a kind committed, which its leftovers are reported with: the price and where the
   * ledger stood ({@code held}, {@code budget}, {@code available}; -1 before the first).
   */
  record Sample(
      String valueType,
      long logicalBytes,
      long storageBytes,
      long chargedBytes,
      boolean materialized,
      boolean estimated,
      long held,
      long budget,
      long available) {
    static final Sample NONE = new Sample("", 0, 0, 0, false, false, -1, -1, -1);
  }

  private final String name;
  private final int index;
  private final Tally tally = new Tally(MARKS + PAIRS, PAIRS);
  private volatile Tier lastTier = Tier.HEAP;

  /** The site's account on each tier, by the tier's ordinal (made on first use). */
  private final Account[] accounts = new Account[Tier.values().length];

  /** Per kind: a cell commits an event once it has counted this many since its mark. */
  private final int[] every = new int[KINDS];

  /** Per kind: events committed this period, against {@link #cap}. */
  private final AtomicLongArray committed = new AtomicLongArray(KINDS);

  /** Per kind: the events a period may commit; written by the close, read racily. */
  private final long[] cap = new long[KINDS];

  private final Sample[] samples = new Sample[KINDS];

  CacheSite(String name, int index) {
    this.name = name;
    this.index = index;
    for (int k = 0; k < KINDS; k++) {
      samples[k] = Sample.NONE;
      // the first second's share, at the throttle the recordings ask for now
      plan(k, 0, rate(k), 1.0);
    }
  }

  /** Returns the site's index among the cache-admit sites (its nesting counter, per thread). */
  int index() {
    return index;
  }

  /** Returns the site's name in the sites file. */
  String name() {
    return name;
  }

  /**
   * Returns the account of this site's holdings on {@code ledger}'s tier. Two threads that make it
   * at once make equal ones (an account is its two fields, final, so either is safe to share).
   */
  Account account(TierLedger ledger) {
    int i = ledger.tier().ordinal();
    Account a = accounts[i];
    if (a == null || a.ledger() != ledger) {
      a = new Account(this, ledger);
      accounts[i] = a;
    }
    return a;
  }

  /** Returns the tier of the last value priced here. */
  Tier lastTier() {
    return lastTier;
  }

  /**
   * Counts one decision or release of {@code kind} on {@code tier} for {@code bytes}, on the cell
   * of {@code t} (the calling thread's state); returns how many decisions an event committed now
   * should stand for, or 0 when none is due ({@code sampling} false: none is wanted).
   */
  long count(GateThread t, Tier tier, int kind, long bytes, boolean estimated, boolean sampling) {
    if (kind < FIRST_RELEASE && lastTier != tier) {
      lastTier = tier; // a volatile write only when the tier changes, not per decision
    }
    long[] cell = tally.cell(t);
    int pair = tier.ordinal() * KINDS + kind;
    long n = tally.addPair(t, cell, pair, bytes, sampling);
    if (estimated) {
      tally.addTo(cell, ESTIMATED + tier.ordinal(), 1);
    }
    if (n <= 0) {
      return 0; // not sampling, or a carry overlapped the add: the close takes the count
    }
    int mark = MARKS + pair;
    int due = (int) EVERY.getOpaque(every, kind);
    if (due > 1 && n - tally.read(cell, mark) < due) {
      return 0; // (due 1: the take below finds whether a count is left)
    }
    if (cap[kind] != Long.MAX_VALUE
        && committed.incrementAndGet(kind) > cap[kind]
        && !raised(kind)) {
      EVERY.setOpaque(every, kind, Integer.MAX_VALUE); // the period's share is spent
      return 0;
    }
    // Every decision an event (throttle off, or a rate above the site's): one each, so that the
    // events are as many as the decisions; else the count since the mark, 0 when the close or a
    // later add of the cell took it first.
    return due == 1 ? takeOne(cell, pair, mark) : takeUpTo(cell, n, mark);
  }

  /**
   * Returns true when the throttle in force now allows more of {@code kind} than this period's plan
   * (a recording started since, with a higher rate or {@code off}): the plan is raised to it.
   */
  private boolean raised(int kind) {
    double rate = rate(kind);
    if (Double.isInfinite(rate)) {
      cap[kind] = Long.MAX_VALUE;
      EVERY.setOpaque(every, kind, 1);
      return true;
    }
    long now = (long) Math.ceil(rate);
    if (now > cap[kind] && committed.get(kind) <= now) {
      cap[kind] = now;
      return true;
    }
    return false;
  }

  private static double rate(int kind) {
    return (kind < FIRST_RELEASE
            ? org.flodl.budget.events.CacheAdmissionEvent.Throttle.RATE
            : org.flodl.budget.events.ReleaseEvent.Throttle.RATE)
        .perSecond();
  }

  /** Notes the price an event of {@code kind} was committed with, for its leftovers' event. */
  void sampled(int kind, Sample s) {
    samples[kind] = s;
  }

  /** Returns the price of the last event of {@code kind} committed (zeros before the first). */
  Sample sample(int kind) {
    Sample s = samples[kind];
    return s == null ? Sample.NONE : s;
  }

  /**
   * Closes a period: returns per tier what was counted since the last close (the tier that decided
   * last, with zeros, when none counted anything), puts in {@code leftovers} (tier by kind) the
   * counts no event stands for yet, and sets the sampling of the next period from {@code
   * admissionRate} and {@code releaseRate} (events a second per kind; infinite: all) over a period
   * of {@code seconds}.
   */
  synchronized java.util.List<Tiered> close(
      long[][] leftovers, double admissionRate, double releaseRate, double seconds) {
    long[] d = tally.drain(restsInto(leftovers));
    long[] totals = tally.drained();
    long[] perKind = new long[KINDS];
    java.util.List<Tiered> out = new java.util.ArrayList<>(1);
    for (Tier tier : Tier.values()) {
      long[] slice = slice(d, tier.ordinal());
      SiteSummaryEvent.Counts c = counts(slice);
      for (int k = 0; k < KINDS; k++) {
        perKind[k] += slice[2 * k];
      }
      if (!c.isEmpty()) {
        out.add(new Tiered(tier, c, held(slice(totals, tier.ordinal()))));
      }
    }
    if (out.isEmpty()) { // nothing on any tier: the last tier, with zeros
      Tier t = lastTier;
      out.add(new Tiered(t, SiteSummaryEvent.Counts.NONE, held(slice(totals, t.ordinal()))));
    }
    for (int k = 0; k < KINDS; k++) {
      double rate = k < FIRST_RELEASE ? admissionRate : releaseRate;
      plan(k, perKind[k], rate, seconds);
    }
    return out;
  }

  /** Returns a visitor that takes each cell's counts since its marks into {@code rests}. */
  private Tally.CellVisitor restsInto(long[][] rests) {
    return new Tally.CellVisitor() {
      @Override
      public void visit(long[] cell) {
        for (int t = 0; t < TIERS; t++) {
          for (int k = 0; k < KINDS; k++) {
            int pair = t * KINDS + k;
            rests[t][k] += takeUpTo(cell, Tally.count(cell, pair), MARKS + pair);
          }
        }
      }
    };
  }

  /** Returns the number of cells the site's counts are striped over (for tests). */
  int cells() {
    return tally.cells();
  }

  /**
   * Returns the decisions the site has taken from its start to now (every kind but releases, on
   * every tier): this rank's consumption, for {@code host_share=auto}.
   */
  long decisions() {
    long[] t = tally.total();
    long n = 0;
    for (int tier = 0; tier < TIERS; tier++) {
      for (int k = 0; k < FIRST_RELEASE; k++) {
        n += t[2 * (tier * KINDS + k)];
      }
    }
    return n;
  }

  /** Sets kind {@code k}'s sampling for the next period from {@code n} counted in the last. */
  private void plan(int k, long n, double rate, double seconds) {
    committed.set(k, 0);
    if (Double.isInfinite(rate) || Double.isNaN(rate)) {
      cap[k] = Long.MAX_VALUE;
      EVERY.setOpaque(every, k, 1);
      return;
    }
    double allowed = rate * Math.max(seconds, 0.001);
    cap[k] = (long) Math.ceil(allowed);
    long e = allowed < 1 ? Integer.MAX_VALUE : (long) Math.ceil(n / allowed);
    EVERY.setOpaque(every, k, (int) Math.max(1, Math.min(Integer.MAX_VALUE, e)));
  }

  /**
   * Moves {@code cell}'s mark at {@code mark} up by one while it is under the count of pair {@code
   * pair}; returns 1, or 0 when the close took every count since (or a carry is under way in the
   * cell: the close takes that count). Each decision adds one to the count before it takes one, so
   * a decision finds one to take unless the close took them all.
   */
  private long takeOne(long[] cell, int pair, int mark) {
    while (true) {
      long m = tally.read(cell, mark);
      if (m >= Tally.countNow(cell, pair)) {
        return 0;
      }
      if (tally.swap(cell, mark, m, m + 1)) {
        return 1;
      }
    }
  }

  /**
   * Moves {@code cell}'s mark at {@code mark} up to {@code n}, a count the cell reached; returns
   * what it moved (0 when the mark is there or past it already). Each count is taken once.
   */
  private long takeUpTo(long[] cell, long n, int mark) {
    while (true) {
      long m = tally.read(cell, mark);
      if (n <= m) {
        return 0;
      }
      if (tally.swap(cell, mark, m, n)) {
        return n - m;
      }
    }
  }

  /**
   * Returns what the site counted from its start to now, all tiers together (the sums of its {@code
   * SiteSummary} events so far, and what the next will add), and its held bytes.
   */
  SiteTotals totalsNow() {
    long[] t = tally.total();
    long[] all = new long[SLICE_ESTIMATED + 1]; // every tier's slice of the cells, summed
    for (int tier = 0; tier < TIERS; tier++) {
      long[] slice = slice(t, tier);
      for (int i = 0; i < all.length; i++) {
        all[i] += slice[i];
      }
    }
    return new SiteTotals(name, lastTier, counts(all), held(all));
  }

  /**
   * Returns tier {@code tier}'s slice of the tally's counters {@code d}: each kind's count and
   * bytes (at {@code 2 * kind} and {@code 2 * kind + 1}), then the estimated count.
   */
  private static long[] slice(long[] d, int tier) {
    long[] s = new long[SLICE_ESTIMATED + 1];
    System.arraycopy(d, 2 * tier * KINDS, s, 0, 2 * KINDS);
    s[SLICE_ESTIMATED] = d[ESTIMATED + tier];
    return s;
  }

  /** Returns the summary's counts of tier slice {@code d} (see {@link #slice}). */
  private static SiteSummaryEvent.Counts counts(long[] d) {
    return new SiteSummaryEvent.Counts(
        d[2 * ADMIT] + d[2 * MATERIALIZED],
        d[2 * ADMIT + 1] + d[2 * MATERIALIZED + 1],
        d[2 * MATERIALIZED],
        d[2 * MATERIALIZED + 1],
        d[2 * DECLINE]
            + d[2 * WOULD_DECLINE]
            + d[2 * UNPRICED_DECLINE]
            + d[2 * UNPRICED_WOULD_DECLINE],
        d[2 * DECLINE + 1] + d[2 * WOULD_DECLINE + 1],
        d[2 * WOULD_DECLINE] + d[2 * UNPRICED_WOULD_DECLINE],
        d[2 * UNPRICED_DECLINE] + d[2 * UNPRICED_WOULD_DECLINE],
        d[2 * ALREADY_HELD],
        d[SLICE_ESTIMATED],
        d[2 * RELEASE_SITE] + d[2 * COLLECTED] + d[2 * CALL_THREW],
        d[2 * RELEASE_SITE + 1] + d[2 * COLLECTED + 1] + d[2 * CALL_THREW + 1],
        d[2 * COLLECTED],
        d[2 * COLLECTED + 1]);
  }

  /** Returns the bytes held by tier slice {@code t} of running totals (see {@link #slice}). */
  private static long held(long[] t) {
    return t[2 * ADMIT + 1]
        + t[2 * MATERIALIZED + 1]
        - t[2 * RELEASE_SITE + 1]
        - t[2 * COLLECTED + 1]
        - t[2 * CALL_THREW + 1];
  }
}
