package org.flodl.budget.agent.report;

import java.util.Locale;
import org.flodl.budget.policy.Sizes;

/**
 * The few ways the report writes numbers and text: binary sizes, counts, shares, HTML-safe text.
 */
final class Format {
  private Format() {}

  /** Returns {@code bytes} in binary units ({@code 1.5 GiB}), or {@code unknown} when negative. */
  static String bytes(long bytes) {
    return bytes < 0 ? "unknown" : Sizes.human(bytes);
  }

  /** Returns {@code n} with thousands separators. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /**
   * Returns {@code part / whole} as a whole percentage, or an empty string when it has no meaning.
   */
  static String share(long part, long whole) {
    if (part < 0 || whole <= 0) {
      return "";
    }
    return String.format(Locale.ROOT, "%.0f%%", 100.0 * part / whole);
  }

  /** Returns a fraction as a percentage ({@code 0.5} is {@code 50%}), or {@code ?} when unknown. */
  static String fraction(double f) {
    if (Double.isNaN(f)) {
      return "?";
    }
    return String.format(Locale.ROOT, "%.0f%%", 100.0 * f);
  }

  /** Returns seconds with one decimal. */
  static String seconds(double seconds) {
    return String.format(Locale.ROOT, "%.1f s", seconds);
  }

  /** Returns {@code text} with HTML's special characters escaped; null reads as empty. */
  static String html(String text) {
    if (text == null) {
      return "";
    }
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '<':
          b.append("&lt;");
          break;
        case '>':
          b.append("&gt;");
          break;
        case '&':
          b.append("&amp;");
          break;
        case '"':
          b.append("&quot;");
          break;
        case '\'':
          b.append("&#39;");
          break;
        default:
          b.append(c);
      }
    }
    return b.toString();
  }

  /** Returns {@code text}, or {@code fallback} when it is null or blank. */
  static String orElse(String text, String fallback) {
    return text == null || text.isBlank() ? fallback : text;
  }
}
