package org.flodl.budget.agent.library;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's voice on stderr: one line per problem, prefixed {@code flodl-budget:}, a repeated
 * problem said once per key. Never throws.
 */
public final class Log {
  /** Levels in the order of {@code log=warn|info|debug}. */
  public static final int WARN = 0;

  /** Level of the start-up summary and each woven class. */
  public static final int INFO = 1;

  /** Level of per-decision detail. */
  public static final int DEBUG = 2;

  /** The longest line the agent prints; longer ones are cut, control bytes escaped. */
  public static final int MAX_LINE = 299;

  /** The most distinct once-keys remembered (a flood of distinct problems stays bounded). */
  private static final int MAX_KEYS = 4096;

  private static volatile int level = WARN;
  private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

  private Log() {}

  /** Sets the level ({@link #WARN}, {@link #INFO} or {@link #DEBUG}). */
  public static void level(int newLevel) {
    level = newLevel;
  }

  /** Returns whether lines of {@code atLevel} are printed. */
  public static boolean enabled(int atLevel) {
    return atLevel <= level;
  }

  /** Prints one warning line. */
  public static void warn(String message) {
    print(message);
  }

  /** Prints one warning line the first time {@code key} is seen. */
  public static void warnOnce(String key, String message) {
    warnOnceSaid(key, message);
  }

  /** Prints one warning line the first time {@code key} is seen; returns whether it did. */
  public static boolean warnOnceSaid(String key, String message) {
    if (SAID.size() < MAX_KEYS ? SAID.add(key) : !SAID.contains(key) && SAID.add("overflow")) {
      print(message);
      return true;
    }
    return false;
  }

  /** Prints one line at info level. */
  public static void info(String message) {
    if (level >= INFO) {
      print(message);
    }
  }

  /** Prints one line at debug level. */
  public static void debug(String message) {
    if (level >= DEBUG) {
      print(message);
    }
  }

  private static void print(String message) {
    try {
      String line = message.startsWith("flodl-budget:") ? message : "flodl-budget: " + message;
      System.err.println(clip(line, MAX_LINE));
    } catch (Throwable ignored) {
      // stderr is gone; the agent stays quiet rather than fail the caller.
    }
  }

  /**
   * Returns {@code s} with every control or non-printable character escaped ({@code \x1b}, {@code
   * \u2028}) and cut to at most {@code max} characters, ending {@code ...} when cut.
   */
  public static String clip(String s, int max) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 8);
    int i = 0;
    for (; i < s.length() && b.length() < max; i++) {
      char c = s.charAt(i);
      if (printable(c)) {
        b.append(c);
      } else if (c < 0x100) {
        b.append("\\x")
            .append(Character.forDigit(c >> 4, 16))
            .append(Character.forDigit(c & 15, 16));
      } else {
        b.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
          b.append(Character.forDigit((c >> shift) & 15, 16));
        }
      }
    }
    if (i < s.length() || b.length() > max) {
      b.setLength(Math.max(0, Math.min(b.length(), max) - 3));
      b.append("...");
    }
    return b.toString();
  }

  private static boolean printable(char c) {
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029) {
      return false;
    }
    if (Character.isSurrogate(c)) {
      return false; // a half of a pair on its own, or a pair: escaped either way, it is rare
    }
    int type = Character.getType(c);
    return type != Character.UNASSIGNED
        && type != Character.CONTROL
        && type != Character.FORMAT
        && type != Character.PRIVATE_USE;
  }
}
