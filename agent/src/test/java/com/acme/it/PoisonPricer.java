package com.acme.it;

import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.ValuePricer;

/** A ValuePricer (found through ServiceLoader) that throws for {@link Poison}: a broken plug-in. */
public final class PoisonPricer implements ValuePricer {
  @Override
  public boolean supports(Object v) {
    return v instanceof Poison;
  }

  @Override
  public Priced price(Object v, RetentionPricer pricer) {
    throw new IllegalStateException("poison pricer refuses " + v.getClass().getSimpleName());
  }
}
