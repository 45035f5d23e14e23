package org.flodl.budget.agent.config;

import java.math.BigDecimal;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.flodl.budget.policy.Knobs;
import org.flodl.budget.policy.Sizes;

/**
 * Parses the value syntaxes shared by the agent arguments and the sites file. Each parser returns
 * the value or throws {@link IllegalArgumentException} whose message says what was expected.
 */
final class Values {
  private Values() {}

  static final String FRACTION = "a fraction in (0, 1], e.g. 0.5";
  static final String VRAM_PROBES =
      "auto, jcuda, cuda, nvml, none or fixed:USED/TOTAL (e.g. fixed:5592M/6360465408)";
  static final String RAM_PROBES = "auto, proc, mxbean or fixed:AVAILABLE (e.g. fixed:2G)";
  static final String DURATION = "a duration from 10ms to 1h, like 500ms, 2s or 1m";

  /**
   * The shortest and longest probe interval: a tighter loop only burns a core, a longer one leaves
   * the budgets blind for longer than any epoch.
   */
  static final Duration MIN_DURATION = Duration.ofMillis(10);

  static final String AGE = "a duration like 30m, 6h or 2d, or 0 for no bound";
  static final Duration MAX_DURATION = Duration.ofHours(1);

  /**
   * Returns whether {@code t} is a decimal number as the arguments write one: {@code [+-]?}, then
   * digits with an optional fraction ({@code 5}, {@code 5.}, {@code .5}, {@code 0.25}) and an
   * optional exponent ({@code 1e-2}), or {@code NaN} or {@code Infinity}. Checked by hand, not by a
   * regular expression: this runs in {@code premain}, where {@code java.util.regex} would load and
   * bootstrap about forty classes.
   */
  static boolean isDecimal(String t) {
    int n = t.length();
    int i = n > 0 && (t.charAt(0) == '+' || t.charAt(0) == '-') ? 1 : 0;
    if (t.startsWith("NaN", i) && i + 3 == n || t.startsWith("Infinity", i) && i + 8 == n) {
      return true;
    }
    int start = i;
    i = digits(t, i);
    int whole = i - start;
    int fraction = 0;
    if (i < n && t.charAt(i) == '.') {
      int at = i + 1;
      i = digits(t, at);
      fraction = i - at;
    }
    if (whole == 0 && fraction == 0) {
      return false;
    }
    if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
      i++;
      if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
        i++;
      }
      int at = i;
      i = digits(t, at);
      if (i == at) {
        return false;
      }
    }
    return i == n;
  }

  /** Returns the index past the ASCII digits of {@code t} from {@code i}. */
  private static int digits(String t, int i) {
    while (i < t.length() && t.charAt(i) >= '0' && t.charAt(i) <= '9') {
      i++;
    }
    return i;
  }

  /** Returns {@code text} as a fraction in (0, 1]. */
  static double fraction(String key, String text) {
    if (!isDecimal(text)) {
      throw new IllegalArgumentException("expected " + FRACTION);
    }
    try {
      return Knobs.requireFraction(key, Double.parseDouble(text));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("expected " + FRACTION);
    }
  }

  /** Returns {@code text} as one of {@code choices} (case-insensitive), upper-cased. */
  static String choice(String text, String... choices) {
    for (String c : choices) {
      if (c.equalsIgnoreCase(text)) {
        return c.toUpperCase(Locale.ROOT);
      }
    }
    throw new IllegalArgumentException("expected " + either(choices));
  }

  /** Returns {@code text} as a boolean spelled {@code yes} or {@code no}. */
  static boolean bool(String text, String yes, String no) {
    if (yes.equalsIgnoreCase(text)) {
      return true;
    }
    if (no.equalsIgnoreCase(text)) {
      return false;
    }
    throw new IllegalArgumentException("expected " + yes + " or " + no);
  }

  /** Returns the canonical form of a {@code vram_probe} spec, checked. */
  static String vramProbe(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "auto", "jcuda", "cuda", "nvml", "none" -> {
        return lower;
      }
      default -> {}
    }
    if (!lower.startsWith("fixed:")) {
      throw new IllegalArgumentException("expected " + VRAM_PROBES);
    }
    String spec = text.substring("fixed:".length()).trim();
    int slash = spec.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(
          "expected fixed:USED/TOTAL with two sizes (e.g. fixed:5592M/6360465408)");
    }
    String used = spec.substring(0, slash).trim();
    String total = spec.substring(slash + 1).trim();
    long totalBytes;
    try {
      Sizes.parse(used);
      totalBytes = Sizes.parse(total);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected fixed:USED/TOTAL with two sizes (e.g. fixed:5592M/6360465408), "
              + e.getMessage());
    }
    if (totalBytes <= 0) {
      throw new IllegalArgumentException(
          "expected fixed:USED/TOTAL with TOTAL more than 0 (e.g. fixed:5592M/6360465408)");
    }
    return "fixed:" + used + "/" + total;
  }

  /** Returns the canonical form of a {@code ram_probe} spec, checked. */
  static String ramProbe(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    switch (lower) {
      case "auto", "proc", "mxbean" -> {
        return lower;
      }
      default -> {}
    }
    if (!lower.startsWith("fixed:")) {
      throw new IllegalArgumentException("expected " + RAM_PROBES);
    }
    String available = text.substring("fixed:".length()).trim();
    try {
      Sizes.parse(available);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "expected fixed:AVAILABLE with a size (e.g. fixed:2G), " + e.getMessage());
    }
    return "fixed:" + available;
  }

  /** Returns {@code text} ({@code 500ms}, {@code 2s}, {@code 1m}) as a positive duration. */
  static Duration duration(String text) {
    // (\d{1,9})\s*(ms|s|m), case-insensitive, checked by hand (see isDecimal).
    int end = digits(text, 0);
    int unitAt = end;
    while (unitAt < text.length() && Text.WHITESPACE.indexOf(text.charAt(unitAt)) >= 0) {
      unitAt++;
    }
    String unit = text.substring(unitAt).toLowerCase(Locale.ROOT);
    if (end == 0 || end > 9 || !(unit.equals("ms") || unit.equals("s") || unit.equals("m"))) {
      throw new IllegalArgumentException("expected " + DURATION);
    }
    long n = Long.parseLong(text.substring(0, end));
    long max =
        switch (unit) {
          case "ms" -> MAX_DURATION.toMillis();
          case "s" -> MAX_DURATION.toSeconds();
          default -> MAX_DURATION.toMinutes();
        };
    if (n > max) {
      throw new IllegalArgumentException("expected " + DURATION + " (" + text + " is longer)");
    }
    Duration d =
        switch (unit) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          default -> Duration.ofMinutes(n);
        };
    if (d.compareTo(MIN_DURATION) < 0) {
      throw new IllegalArgumentException("expected " + DURATION + " (" + text + " is shorter)");
    }
    return d;
  }

  /**
   * Returns {@code text} ({@code 30s}, {@code 30m}, {@code 6h}, {@code 2d}, or {@code 0}) as an
   * age; zero is no bound.
   */
  static Duration age(String text) {
    String t = text.trim();
    if (t.equals("0")) {
      return Duration.ZERO;
    }
    int end = digits(t, 0);
    String unit = t.substring(end).trim().toLowerCase(Locale.ROOT);
    if (end == 0 || end > 6) {
      throw new IllegalArgumentException("expected " + AGE);
    }
    long n = Long.parseLong(t.substring(0, end));
    Duration d =
        switch (unit) {
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          case "d" -> Duration.ofDays(n);
          default -> throw new IllegalArgumentException("expected " + AGE);
        };
    return d;
  }

  /** Returns {@code d} in the syntax {@link #age} reads. */
  static String formatAge(Duration d) {
    long s = d.getSeconds();
    if (s == 0) {
      return "0";
    }
    return s % 86_400 == 0
        ? s / 86_400 + "d"
        : s % 3600 == 0 ? s / 3600 + "h" : s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  /** Returns the preset names of {@code text} ({@code caffeine:guava}), each once, in order. */
  static java.util.List<String> presets(String text) {
    java.util.List<String> names = new java.util.ArrayList<>();
    if (text.isEmpty()) {
      return java.util.List.of();
    }
    for (String part : text.split(":", -1)) {
      String name = part.trim().toLowerCase(Locale.ROOT);
      if (!Presets.exists(name)) {
        throw new IllegalArgumentException(
            "expected preset names separated by ':' ("
                + either(Presets.NAMES.toArray(new String[0]))
                + "), e.g. caffeine:guava; '"
                + Text.clip(part.trim(), 40)
                + "' is none of them");
      }
      if (!names.contains(name)) {
        names.add(name);
      }
    }
    return java.util.List.copyOf(names);
  }

  /** Returns {@code text} as a file path. */
  static Path path(String text) {
    try {
      return Path.of(text);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException("expected a file path, " + e.getReason());
    }
  }

  /** Returns {@code d} in the syntax {@link #duration} reads. */
  static String format(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
  }

  /** Returns {@code v} without trailing zeros: {@code 0.5}, {@code 1}. */
  static String format(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    String s = Double.toString(v); // the shortest decimal that reads back as v: 0.9, 0.25
    // BigDecimal only for what Double.toString writes in scientific form (1.0E-4): it costs a
    // JVM tens of milliseconds of start-up to load.
    return s.indexOf('E') < 0 ? s : BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** Returns {@code a, b or c}. */
  static String either(String... choices) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < choices.length; i++) {
      if (i > 0) {
        b.append(i == choices.length - 1 ? " or " : ", ");
      }
      b.append(choices[i]);
    }
    return b.toString();
  }
}
