package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flodl.budget.policy.Advice;

/**
 * The bare flag's advice drawn from a recording of a job it observed: the block the agent printed
 * at exit ({@link Advice}), from the site summaries (each site's most held bytes at a summary, the
 * values it held then, what a budget would have declined), the prefetch sites' last depths, the
 * arguments the agent was given and the jar the JVM's arguments name. Empty where the recording is
 * not of the bare flag (a key that chose what to budget was set) or no site held memory. A preset's
 * sites are named for it, or for it and {@code -cache} (dl4j's cache site; the presets' test holds
 * them to it), and the bare flag observes presets alone: that names each cache site's preset.
 */
final class ReportAdvice {
  private ReportAdvice() {}

  /** Returns the block's lines (without the agent's prefix), or none. */
  static List<String> lines(BudgetReport r) {
    if (!observedAll(r)) {
      return List.of();
    }
    // Each site's peak once: CacheLedger.siteHeldPeak sorts and walks its summaries.
    Map<CacheLedger, long[]> peaks = new LinkedHashMap<>();
    for (CacheLedger site : r.cacheSites.values()) {
      if (site.summaries.admittedBytes > 0 || site.summaries.declinedBytes > 0) {
        peaks.put(site, site.siteHeldPeak());
      }
    }
    List<CacheLedger> held = new ArrayList<>(peaks.keySet());
    held.sort(
        Comparator.comparingLong((CacheLedger s) -> peaks.get(s)[0] + s.summaries.declinedBytes)
            .reversed());
    List<String> lines = new ArrayList<>();
    Set<String> presets = new LinkedHashSet<>();
    for (CacheLedger site : held) {
      String preset = presetOf(site.name);
      presets.add(preset);
      long[] peak = peaks.get(site);
      lines.add(
          Advice.cacheLine(
              site.name,
              peak[0],
              peak[1],
              site.tier.isEmpty() ? "heap" : site.tier,
              peak[2],
              site.summaries.wouldDeclines,
              site.summaries.declinedBytes,
              preset));
    }
    boolean djl = false;
    for (DepthHistory site : r.prefetchSites.values()) {
      DepthChoice last = site.points.isEmpty() ? null : site.points.get(site.points.size() - 1);
      if (last != null && last.depth < last.requested) {
        lines.add(
            Advice.depthLine(site.name, last.requested, site.device, last.depth, last.reason));
        djl = true;
      }
    }
    if (lines.isEmpty()) {
      return List.of();
    }
    List<String> args = new ArrayList<>();
    for (RecordedSetting s : r.configuration.values()) {
      if (s.source.equals("AGENT_ARGS")) {
        args.add(s.key + "=" + s.value);
      }
    }
    String jar = Advice.jarNamedIn(Arrays.asList(r.jvmArguments.split(" ")));
    List<String> block = new ArrayList<>();
    block.add(Advice.HEADER);
    block.addAll(lines);
    block.add(Advice.FLAG + Advice.flag(jar == null ? Advice.JAR : jar, args, presets, djl));
    return block;
  }

  /**
   * Returns whether the recording is of the bare flag: its mode {@code observe} by default, which
   * only the bare flag makes it (the default is {@code enforce}; a mode anyone set has a source).
   */
  private static boolean observedAll(BudgetReport r) {
    RecordedSetting mode = r.configuration.get("mode");
    return mode != null && mode.value.equals("observe") && mode.source.equals("DEFAULT");
  }

  private static String presetOf(String site) {
    return site.endsWith("-cache") ? site.substring(0, site.length() - "-cache".length()) : site;
  }
}
