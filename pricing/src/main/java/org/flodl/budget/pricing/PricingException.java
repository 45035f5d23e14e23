package org.flodl.budget.pricing;

/**
 * A value the pricer could not price: an exception from the value's own code while it was walked
 * (its iterator, its {@code size()}), a change under the walk, a walk that reached its bound with
 * nothing to say how much was left, or the pricer's own memory. The caller declines the value:
 * nothing is admitted unbooked. The message is one line; {@link #reason()} names the kind.
 */
public final class PricingException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String reason;

  PricingException(String reason, String message, Throwable cause) {
    super(message, cause, false, false);
    this.reason = reason;
  }

  /**
   * Returns the kind of failure: {@code THREW}, {@code CHANGED}, {@code UNBOUNDED}, {@code MEMORY}.
   */
  public String reason() {
    return reason;
  }
}
