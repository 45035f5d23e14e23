package org.flodl.budget.policy;

/**
 * Rust's {@code u64} saturating arithmetic on Java's signed {@code long}. Every size in the policy
 * is a non-negative {@code long}; {@link Long#MAX_VALUE} plays the part of {@code u64::MAX} (the
 * failed-probe sentinel). Nothing here wraps: sums saturate at {@code Long.MAX_VALUE}, differences
 * at 0, and a negative input is read as 0.
 */
public final class Saturating {
  private Saturating() {}

  /** Returns {@code v}, or 0 when it is negative: sizes are unsigned. */
  public static long unsigned(long v) {
    return Math.max(v, 0L);
  }

  /** Returns {@code a + b}, saturated at {@link Long#MAX_VALUE}. */
  public static long add(long a, long b) {
    long r = unsigned(a) + unsigned(b);
    return r < 0 ? Long.MAX_VALUE : r;
  }

  /** Returns {@code a - b}, saturated at 0. */
  public static long sub(long a, long b) {
    long ua = unsigned(a);
    long ub = unsigned(b);
    return ua > ub ? ua - ub : 0L;
  }

  /** Returns {@code a × b}, saturated at {@link Long#MAX_VALUE}. */
  public static long mul(long a, long b) {
    long ua = unsigned(a);
    long ub = unsigned(b);
    long hi = Math.multiplyHigh(ua, ub);
    long lo = ua * ub;
    return (hi != 0 || lo < 0) ? Long.MAX_VALUE : lo;
  }

  /**
   * Returns {@code (long) (bytes × fraction)} with Rust's {@code f64 as u64} meaning: NaN and
   * negatives give 0, values past the range give {@link Long#MAX_VALUE}.
   */
  public static long scale(long bytes, double fraction) {
    double product = (double) unsigned(bytes) * fraction;
    if (!(product > 0)) {
      return 0L;
    }
    return (long) product; // Java's narrowing saturates at Long.MAX_VALUE
  }
}
