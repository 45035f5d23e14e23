package org.flodl.budget.agent.gate;

import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;

/**
 * The bytes each depth site's host ring holds (slots × batch bytes), by tier: what {@link Budgets}
 * cuts from a tier's cache budget first, as the seed's {@code sample_cache_budget} does (both draw
 * on the same share).
 */
final class RingBook {
  private final ConcurrentHashMap<String, long[]> rings = new ConcurrentHashMap<>();

  /**
   * Books {@code bytes} in {@code tier} for {@code site}'s ring (0 lets it go); returns whether
   * that changed what was booked.
   */
  boolean book(String site, Tier tier, long bytes) {
    long kept = Math.max(0, bytes);
    long[] previous = rings.put(site, new long[] {tier.ordinal(), kept});
    return previous == null || previous[0] != tier.ordinal() || previous[1] != kept;
  }

  /** Returns the bytes the rings hold in {@code tier}. */
  long bytes(Tier tier) {
    long sum = 0;
    for (long[] r : rings.values()) {
      if (r[0] == tier.ordinal()) {
        sum = Saturating.add(sum, r[1]);
      }
    }
    return sum;
  }
}
