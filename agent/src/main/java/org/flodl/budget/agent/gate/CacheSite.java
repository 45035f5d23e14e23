package org.flodl.budget.agent.gate;

import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;

/**
 * A cache-admit site at run time: its name, its index (its nesting counter per thread), and the
 * counts its {@code SiteSummary} event reports since the last period. Counting is a per-thread
 * {@link Tally}: an admission on a cache's hot path adds to its own thread's row, with no atomic
 * operation and no contention.
 */
final class CacheSite {
  private static final int ADMISSIONS = 0;
  private static final int DECLINES = 1;
  private static final int MATERIALIZED = 2;
  private static final int ADMITTED_BYTES = 3;
  private static final int DECLINED_BYTES = 4;
  private static final int MATERIALIZED_BYTES = 5;
  private static final int RELEASED_BYTES = 6;
  private static final int ESTIMATED = 7;
  private static final int UNPRICED = 8;

  /** What a site counted since the last drain. */
  record Counts(long admissions, long declines, long materialized, long admittedBytes,
      long declinedBytes, long materializedBytes, long releasedBytes, long estimated,
      long unpriced) {}

  private final String name;
  private final int index;
  private final Tally tally = new Tally(9);
  private volatile Tier lastTier = Tier.HEAP;
  /** The site's account on each tier, by the tier's ordinal (made on first use). */
  private final Account[] accounts = new Account[Tier.values().length];

  CacheSite(String name, int index) {
    this.name = name;
    this.index = index;
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
   * Returns the account of this site's holdings on {@code ledger}'s tier. Two threads that make
   * it at once make equal ones (an account is its two fields, final, so either is safe to share).
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

  void admitted(Tier tier, long bytes, boolean copy, boolean estimated) {
    tier(tier);
    tally.add(ADMISSIONS, 1, ADMITTED_BYTES, bytes);
    if (copy) {
      tally.add(MATERIALIZED, 1, MATERIALIZED_BYTES, bytes);
    }
    if (estimated) {
      tally.add(ESTIMATED, 1);
    }
  }

  void declined(Tier tier, long bytes, boolean estimated) {
    tier(tier);
    tally.add(DECLINES, 1, DECLINED_BYTES, bytes);
    if (estimated) {
      tally.add(ESTIMATED, 1);
    }
  }

  /** Counts a value the pricer could not price: a decline, and an unpriced one. */
  void unpriced() {
    tally.add(DECLINES, 1, UNPRICED, 1);
  }

  void released(long bytes) {
    tally.add(RELEASED_BYTES, bytes);
  }

  private void tier(Tier tier) {
    if (lastTier != tier) {
      lastTier = tier; // a volatile write only when the tier changes, not per admission
    }
  }

  /** Returns what was counted since the last drain. */
  Counts drain() {
    long[] c = tally.drain();
    return new Counts(c[ADMISSIONS], c[DECLINES], c[MATERIALIZED], c[ADMITTED_BYTES],
        c[DECLINED_BYTES], c[MATERIALIZED_BYTES], c[RELEASED_BYTES], c[ESTIMATED], c[UNPRICED]);
  }
}
