package org.flodl.budget.pricing;

/**
 * A library's pricing of its own value types (the agent's library units contribute one each), asked
 * once per class, before the generic law: the pricer it returns prices every value of that class
 * (its {@link ValuePricer#supports} is not asked). Arrays, {@link java.nio.Buffer}s and strings are
 * never asked about. A type pricer that throws is skipped for that class.
 */
public interface TypePricer {

  /**
   * Returns the pricer of values of class {@code c}, or null where {@code c} is not its library's.
   */
  ValuePricer pricerOf(Class<?> c);
}
