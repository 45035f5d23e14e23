package org.flodl.budget.pricing;

/**
 * A pricer an application registers for its own value types, found with {@link
 * java.util.ServiceLoader} ({@code META-INF/services/org.flodl.budget.pricing.ValuePricer} on the
 * class loader given to {@link RetentionPricer#standard}). It is asked about every value that is
 * neither a primitive array nor a {@link java.nio.Buffer} nor of a library's type ({@link
 * TypePricer}), before the built-in container and shallow-size rules; the first pricer that {@link
 * #supports} a value prices it. It may price parts with {@link RetentionPricer#estimate}, or hand
 * them to the walk ({@link #parts}), which charges each part once. A price that says {@code
 * materialize} must come with {@link #materialize}; a pricer that throws is skipped (shallow size)
 * and reported once. See docs/PRICING.md for an example.
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

  /**
   * Returns the parts the walk prices in {@code value}'s place (the value itself charged its
   * shallow size, each part once, as the parts of any container are), or null when {@link #price}
   * prices it whole (the default).
   */
  default Object[] parts(Object value) {
    return null;
  }

  /**
   * Returns whether {@link #rebuild} can make a new {@code value} around copies of its parts; when
   * it cannot (the default), a view among the parts is kept and charged its whole storage.
   */
  default boolean canRebuild(Object value) {
    return false;
  }

  /** Returns a new value like {@code value} made of {@code parts}, some of them copies. */
  default Object rebuild(Object value, Object[] parts) {
    throw new UnsupportedOperationException(getClass().getName() + " cannot rebuild a value");
  }

  /**
   * Registers with {@code releases} what hands {@code value}'s references back to its library once
   * the application can no longer reach it: asked for a value the budget declined, which no cache
   * will release on eviction (a reference-counted buffer). Returns whether anything was registered
   * (the default: nothing, a value the collector frees by itself).
   */
  default boolean releaseWhenUnreachable(Object value, Releases releases) {
    return false;
  }
}
