package org.flodl.budget.agent.library;

import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * The pricer of a library's type whose methods could not be found (another version's API): its
 * values are charged their shallow size, never walked into the library's internals.
 */
public final class Shallow extends TypeValuePricer {
  /** The one instance. */
  public static final ValuePricer PRICER = new Shallow();

  private Shallow() {}

  @Override
  public Priced price(Object value, RetentionPricer pricer) {
    return null; // the pricer charges a null price the value's shallow size
  }
}
