package org.flodl.budget.pricing;

/**
 * Where a {@link ValuePricer} registers what hands a value's references back to its library once
 * the application can no longer reach the value ({@link ValuePricer#releaseWhenUnreachable}).
 */
public interface Releases {

  /**
   * Runs {@code action} once, on the pricer's cleaner thread, after {@code holder} has become
   * phantom reachable. {@code action} must not reach {@code holder} (it would never be collected);
   * what it throws is said once and otherwise ignored.
   */
  void whenUnreachable(Object holder, Runnable action);
}
