package org.flodl.budget.findings;

import java.util.Locale;

/**
 * How findings spell numbers: counts with separators, bytes in binary units (the policy's {@code
 * Sizes}, as the report spells them), shares in %.
 */
public final class Format {
  private Format() {}

  /** Returns {@code s}, or {@code other} when it is null or empty. */
  public static String orElse(String s, String other) {
    return s == null || s.isEmpty() ? other : s;
  }

  /**
   * Returns {@code n} and {@code noun}, plural unless one: {@code 1 probe reading}, {@code 2 ...s}.
   */
  public static String plural(long n, String noun) {
    return count(n) + " " + noun + (n == 1 ? "" : "s");
  }

  /** Returns {@code n} with thousands separators: {@code 1,234,567}. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** Returns {@code bytes} as the report spells them ({@code 72.0 MiB}), {@code unknown} if < 0. */
  public static String bytes(long bytes) {
    return bytes < 0 ? "unknown" : org.flodl.budget.policy.Sizes.human(bytes);
  }

  /** Returns {@code part / whole} as a percentage, {@code 41 %} (one decimal under 10). */
  public static String share(long part, long whole) {
    if (whole <= 0) {
      return "0 %";
    }
    double p = 100.0 * part / whole;
    return p < 10 && p != Math.rint(p)
        ? String.format(Locale.ROOT, "%.1f %%", p)
        : String.format(Locale.ROOT, "%.0f %%", p);
  }

  /** Returns a fraction (0.5) as {@code 0.5}, NaN as {@code ?}. */
  public static String fraction(double f) {
    if (Double.isNaN(f)) {
      return "?";
    }
    String s = String.format(Locale.ROOT, "%.3f", f);
    return s.replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
