package org.flodl.budget.agent.gate;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import org.flodl.budget.policy.Tier;

/**
 * A cache-admit site at run time: its name, and the counts its {@code SiteSummary} event reports
 * (admissions, declines, bytes admitted, declined, materialized and released) since the last
 * period. Counting is a {@link LongAdder} each, so many threads admit without contention.
 */
final class CacheSite {
  private final String name;
  private final Budgets budgets;
  private final LongAdder admissions = new LongAdder();
  private final LongAdder declines = new LongAdder();
  private final LongAdder materialized = new LongAdder();
  private final LongAdder admittedBytes = new LongAdder();
  private final LongAdder declinedBytes = new LongAdder();
  private final LongAdder materializedBytes = new LongAdder();
  private final LongAdder releasedBytes = new LongAdder();
  private final AtomicBoolean pricerFailed = new AtomicBoolean();
  private volatile Tier lastTier = Tier.HEAP;

  CacheSite(String name, Budgets budgets) {
    this.name = name;
    this.budgets = budgets;
  }

  /** Returns the site's name in the sites file. */
  String name() {
    return name;
  }

  /** Returns the tier of the last value priced here. */
  Tier lastTier() {
    return lastTier;
  }

  /** Returns the bytes {@code tier} holds now. */
  long ledgerHeld(Tier tier) {
    return budgets.ledger(tier).held();
  }

  /** Returns true the first time the pricer failed here (the warning is said once). */
  boolean firstPricerFailure() {
    return pricerFailed.compareAndSet(false, true);
  }

  void admitted(Tier tier, long bytes, boolean copy) {
    if (lastTier != tier) {
      lastTier = tier; // a volatile write only when the tier changes, not per admission
    }
    admissions.increment();
    admittedBytes.add(bytes);
    if (copy) {
      materialized.increment();
      materializedBytes.add(bytes);
    }
  }

  void declined(Tier tier, long bytes) {
    if (lastTier != tier) {
      lastTier = tier;
    }
    declines.increment();
    declinedBytes.add(bytes);
  }

  void released(long bytes) {
    releasedBytes.add(bytes);
  }

  /** Returns {admissions, declines, materialized, admitted, declined, materialized, released} and resets them. */
  long[] drain() {
    return new long[] {
      admissions.sumThenReset(), declines.sumThenReset(), materialized.sumThenReset(),
      admittedBytes.sumThenReset(), declinedBytes.sumThenReset(),
      materializedBytes.sumThenReset(), releasedBytes.sumThenReset()
    };
  }
}
