package com.acme.it;

import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * A ValuePricer (found through ServiceLoader) that, pricing an {@link Echo}, puts a copy of its
 * payload into {@link Echo#SIDE}: a call into a woven site from inside the agent.
 */
public final class EchoPricer implements ValuePricer {
  @Override
  public boolean supports(Object v) {
    return v instanceof Echo;
  }

  @Override
  public Priced price(Object v, RetentionPricer pricer) {
    Echo e = (Echo) v;
    Echo.SIDE.put(e.index, e.payload.clone());
    return Priced.owned(Tier.HEAP, Echo.class.getName(), e.payload.length);
  }
}
