package org.flodl.budget.policy;

import java.util.Locale;

/** Parses and prints byte sizes with binary suffixes: {@code 16K}, {@code 5592M}, {@code 2G}. */
public final class Sizes {
  private Sizes() {}

  /**
   * Returns the bytes {@code text} names: a plain count, or a count with {@code K}, {@code M},
   * {@code G} or {@code T} (binary: 1K = 1024), optionally followed by {@code B} or {@code iB}.
   *
   * @throws IllegalArgumentException naming the text when it is not a size or overflows
   */
  public static long parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("a size is required, got nothing");
    }
    String s = text.trim().toUpperCase(Locale.ROOT);
    if (s.endsWith("IB")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("B")) {
      s = s.substring(0, s.length() - 1);
    }
    int shift = 0;
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'K' -> shift = 10;
        case 'M' -> shift = 20;
        case 'G' -> shift = 30;
        case 'T' -> shift = 40;
        default -> shift = -1;
      }
      if (shift >= 0) {
        s = s.substring(0, s.length() - 1);
      } else {
        shift = 0;
      }
    }
    long n;
    try {
      n = Long.parseLong(s.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a size: '" + text + "' (expected bytes like 6360465408, 16K, 5592M or 2G)");
    }
    if (n < 0) {
      throw new IllegalArgumentException("a size cannot be negative: '" + text + "'");
    }
    if (shift > 0 && n > (Long.MAX_VALUE >> shift)) {
      throw new IllegalArgumentException("size too large: '" + text + "'");
    }
    return n << shift;
  }

  /** Returns {@code bytes} for a person: {@code 512 B}, {@code 16.0 KiB}, {@code 5.46 GiB}. */
  public static String human(long bytes) {
    if (bytes == Long.MAX_VALUE) {
      return "unlimited";
    }
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = bytes;
    int i = -1;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return String.format(
        Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[i]);
  }
}
