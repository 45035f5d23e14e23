package org.flodl.budget.agent.gate;

import java.util.concurrent.atomic.AtomicBoolean;
import org.flodl.budget.policy.Tier;

/**
 * A cache-admit site at run time: its name, and the counts its {@code SiteSummary} event reports
 * (admissions, declines, bytes admitted, declined, materialized and released) since the last
 * period. Counting is a per-thread {@link Tally}: an admission on a cache's hot path adds to its
 * own thread's row, with no atomic operation and no contention.
 */
final class CacheSite {
  private static final int ADMISSIONS = 0;
  private static final int DECLINES = 1;
  private static final int MATERIALIZED = 2;
  private static final int ADMITTED_BYTES = 3;
  private static final int DECLINED_BYTES = 4;
  private static final int MATERIALIZED_BYTES = 5;
  private static final int RELEASED_BYTES = 6;

  private final String name;
  private final int index;
  private final Tally tally = new Tally(7);
  private final AtomicBoolean pricerFailed = new AtomicBoolean();
  private volatile Tier lastTier = Tier.HEAP;

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

  /** Returns the tier of the last value priced here. */
  Tier lastTier() {
    return lastTier;
  }

  /** Returns true the first time the pricer failed here (the warning is said once). */
  boolean firstPricerFailure() {
    return pricerFailed.compareAndSet(false, true);
  }

  void admitted(Tier tier, long bytes, boolean copy) {
    if (lastTier != tier) {
      lastTier = tier; // a volatile write only when the tier changes, not per admission
    }
    tally.add(ADMISSIONS, 1, ADMITTED_BYTES, bytes);
    if (copy) {
      tally.add(MATERIALIZED, 1, MATERIALIZED_BYTES, bytes);
    }
  }

  void declined(Tier tier, long bytes) {
    if (lastTier != tier) {
      lastTier = tier;
    }
    tally.add(DECLINES, 1, DECLINED_BYTES, bytes);
  }

  void released(long bytes) {
    tally.add(RELEASED_BYTES, bytes);
  }

  /**
   * Returns {admissions, declines, materialized, admitted, declined, materialized, released}: what
   * was counted since the last drain.
   */
  long[] drain() {
    return tally.drain();
  }
}
