package org.flodl.budget.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What the bare flag says a budget would have done, as the agent prints it at exit and the report
 * shows it from a recording: a line for each cache site that held memory, ranked by what it held, a
 * line for a prefetch deeper than the budget allows, and the flag that budgets them.
 */
public final class Advice {
  /** The block's first line. */
  public static final String HEADER =
      "observed only, nothing changed (no argument chose what to budget);"
          + " what a budget would have done:";

  /** The last line's start, before the flag. */
  public static final String FLAG = "budget it with: ";

  /** The agent jar's name, as its manifest's {@code Boot-Class-Path} names it. */
  public static final String JAR = "flodl-budget-agent.jar";

  private Advice() {}

  /**
   * Returns a cache site's line: it held up to {@code peakBytes} in {@code peakValues} values on
   * {@code tier} (budget {@code budget}, -1: not known), a budget would have declined {@code
   * wouldDeclines} more values of {@code declinedBytes}; {@code preset} (or null) made the site.
   */
  public static String cacheLine(
      String site,
      long peakBytes,
      long peakValues,
      String tier,
      long budget,
      long wouldDeclines,
      long declinedBytes,
      String preset) {
    return "  "
        + site
        + ": held up to "
        + Sizes.human(peakBytes)
        + " in "
        + peakValues
        + " values on the "
        + tier
        + " tier (its budget now "
        + (budget < 0 ? "?" : Sizes.human(budget))
        + ")"
        + (wouldDeclines > 0
            ? "; a budget would have declined "
                + wouldDeclines
                + " more values ("
                + Sizes.human(declinedBytes)
                + ")"
            : "; a budget would have declined none")
        + (preset == null ? "" : " [sure: the " + preset + " preset's cache]");
  }

  /** Returns a prefetch site's line: {@code requested} batches, {@code depth} within the budget. */
  public static String depthLine(
      String site, long requested, String device, long depth, String reason) {
    return "  "
        + site
        + ": a prefetch of "
        + requested
        + " batches on "
        + device
        + ", "
        + depth
        + " within the budget ("
        + reason
        + ") [sure: the library's own prefetch]";
  }

  /**
   * Returns the flag that budgets what was observed: {@code jar} as the job named it, the arguments
   * it was given ({@code KEY=VALUE}), the presets of the sites that held memory and {@code djl=on}
   * for a prefetch.
   */
  public static String flag(
      String jar, Collection<String> args, Collection<String> presets, boolean djl) {
    List<String> all = new ArrayList<>(args);
    if (!presets.isEmpty()) {
      all.add("presets=" + String.join(":", presets));
    }
    if (djl) {
      all.add("djl=on");
    }
    return "-javaagent:" + jar + (all.isEmpty() ? "" : "=" + String.join(",", all));
  }

  /**
   * Returns the agent jar's path named by a {@code -javaagent:PATH[=ARGS]} JVM argument among
   * {@code jvmArguments}, or null.
   */
  public static String jarNamedIn(Iterable<String> jvmArguments) {
    for (String a : jvmArguments) {
      if (a.startsWith("-javaagent:")) {
        String path = a.substring("-javaagent:".length());
        int eq = path.indexOf('=');
        path = eq < 0 ? path : path.substring(0, eq);
        if (path.endsWith(JAR)) {
          return path;
        }
      }
    }
    return null;
  }
}
