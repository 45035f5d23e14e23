package org.flodl.budget.agent.library;

import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * The pricer of a library's shared structures (an allocator, its ledgers and pools): they belong to
 * the job, not to the value a walk reached them from, and are charged nothing, never walked.
 */
public final class Shared extends TypeValuePricer {
  /** The one instance. */
  public static final ValuePricer PRICER = new Shared();

  private Shared() {}

  @Override
  public Priced price(Object value, RetentionPricer pricer) {
    return Priced.owned(Tier.HEAP, value.getClass().getTypeName(), 0);
  }
}
