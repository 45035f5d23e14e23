package org.flodl.budget.pricing;

/**
 * A pricer an application registers for its own value types, found with {@link
 * java.util.ServiceLoader} ({@code META-INF/services/org.flodl.budget.pricing.ValuePricer} on the
 * class loader given to {@link RetentionPricer#standard}). It is asked about every value that is
 * neither a primitive array nor a {@link java.nio.Buffer}, before the built-in container, DJL and
 * shallow-size rules; the first pricer that {@link #supports} a value prices it. It may price parts
 * with {@link RetentionPricer#estimate}. A price that says {@code materialize} must come with
 * {@link #materialize}; a pricer that throws is skipped (shallow size) and reported once. See
 * docs/PRICING.md for an example.
 */
public interface ValuePricer {

  /** Returns whether this pricer prices {@code value}. */
  boolean supports(Object value);

  /** Returns what retaining {@code value} costs. */
  Priced price(Object value, RetentionPricer pricer);

  /**
   * Returns a copy of {@code value} in storage of its own, to be retained instead of it; called
   * only when {@link #price} said {@code materialize}. Throwing declines the admission.
   */
  default Object materialize(Object value, Priced price) {
    throw new UnsupportedOperationException(
        getClass().getName() + " priced a value to materialize but cannot copy it");
  }
}
