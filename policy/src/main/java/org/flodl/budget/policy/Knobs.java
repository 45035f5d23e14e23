package org.flodl.budget.policy;

/** Checks the fractions the policy takes, so a NaN never turns silently into a zero budget. */
public final class Knobs {
  private Knobs() {}

  /**
   * Returns {@code value} if it is a number, else throws an {@link IllegalArgumentException} that
   * names the knob.
   */
  public static double requireNumber(String knob, double value) {
    if (Double.isNaN(value)) {
      throw new IllegalArgumentException(knob + " must be a number, got NaN");
    }
    return value;
  }

  /**
   * Returns {@code value} if it is a fraction in (0, 1], else throws an {@link
   * IllegalArgumentException} naming the knob and the range. Used where a user sets a knob (the
   * agent's arguments); the policy functions themselves keep the seed's meaning for values outside
   * the range.
   */
  public static double requireFraction(String knob, double value) {
    requireNumber(knob, value);
    if (!(value > 0.0 && value <= 1.0)) {
      throw new IllegalArgumentException(knob + " must be a fraction in (0, 1], got " + value);
    }
    return value;
  }
}
