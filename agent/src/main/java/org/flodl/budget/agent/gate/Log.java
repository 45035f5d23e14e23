package org.flodl.budget.agent.gate;

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
    if (SAID.add(key)) {
      print(message);
    }
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
      System.err.println(message.startsWith("flodl-budget:") ? message : "flodl-budget: " + message);
    } catch (Throwable ignored) {
      // stderr is gone; the agent stays quiet rather than fail the caller.
    }
  }
}
