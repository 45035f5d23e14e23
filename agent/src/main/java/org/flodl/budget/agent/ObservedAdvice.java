package org.flodl.budget.agent;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Setting;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.gate.DecisionEvents;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.SiteTotals;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.Advice;

/**
 * What the bare flag says. Where no argument chose what to budget ({@link
 * AgentConfig#observesAll}), the agent observes every library's preset and DJL's prefetch and
 * changes nothing; when the JVM exits (a clean exit, or its last thread dead of {@code
 * OutOfMemoryError}) this prints one block on stderr: each site that held memory, ranked by what it
 * held, what a budget would have declined there, how sure the evidence is, and the flag that
 * budgets them, with the jar path the job was started with. Nothing when no site held memory, or
 * when the mode was turned to enforce while the job ran (the agent's MBean). A daemon thread
 * samples the cache sites' held bytes four times a second for their peaks, and a small reserve of
 * heap set aside at start is let go first at exit, so that the block can be built in a heap that
 * ran out.
 */
final class ObservedAdvice implements Runnable {
  private static final long SAMPLE_MILLIS = 250;
  private static final int RESERVE_BYTES = 256 << 10;

  private final GateEngine engine;
  private final AgentConfig config;
  private final Map<String, String> presetOf = new ConcurrentHashMap<>();

  /** Each cache site's peak: its held bytes and values then. */
  private final Map<String, long[]> peaks = new ConcurrentHashMap<>();

  @SuppressWarnings("unused") // let go at exit: room for the block in a heap that ran out
  private volatile byte[] reserve = new byte[RESERVE_BYTES];

  private ObservedAdvice(GateEngine engine, AgentConfig config, List<SiteSpec> specs) {
    this.engine = engine;
    this.config = config;
    for (SiteSpec s : specs) {
      if (s.origin().startsWith("preset ")) {
        presetOf.putIfAbsent(s.name(), s.origin().substring("preset ".length()));
      }
    }
  }

  /** Starts the sampler and leaves the block to the JVM's exit. */
  static void install(GateEngine engine, AgentConfig config, List<SiteSpec> specs) {
    ObservedAdvice advice = new ObservedAdvice(engine, config, specs);
    // Anonymous classes, not lambdas: this runs in premain (see Bootstrap).
    Thread sampler =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                advice.sampleUntilExit();
              }
            },
            "flodl-budget-observer");
    sampler.setDaemon(true);
    sampler.start();
    Runtime.getRuntime().addShutdownHook(new Thread(advice, "flodl-budget-advice"));
  }

  private void sampleUntilExit() {
    try {
      while (true) {
        sample();
        Thread.sleep(SAMPLE_MILLIS);
      }
    } catch (Throwable t) {
      // interrupted, or out of memory: the exit samples once more
    }
  }

  private void sample() {
    for (String site : engine.siteNames(true)) {
      SiteTotals t = engine.totals(site);
      if (t == null) {
        continue;
      }
      SiteSummaryEvent.Counts c = t.counts();
      long values = c.admissions() - c.releases();
      long[] peak = peaks.get(site);
      if (peak == null) {
        peaks.putIfAbsent(site, new long[2]);
        peak = peaks.get(site);
      }
      synchronized (peak) {
        if (t.heldBytes() > peak[0]) {
          peak[0] = t.heldBytes();
          peak[1] = values;
        }
      }
    }
  }

  /** At exit: prints the block. Never throws. */
  @Override
  public void run() {
    reserve = null;
    try {
      if (engine.mode() != Mode.OBSERVE) {
        return; // turned to enforce while it ran (the MBean): it changed what it decided, as asked
      }
      sample();
      List<String> lines = new ArrayList<>();
      Set<String> presets = new LinkedHashSet<>();
      boolean djl = false;
      for (Row r : rows()) {
        lines.add(r.line);
        if (r.preset != null) {
          presets.add(r.preset);
        }
      }
      for (String site : engine.siteNames(false)) {
        DecisionEvents.LastDepth d = DecisionEvents.lastDepth(site);
        if (d != null && d.depth() < d.requested()) {
          lines.add(Advice.depthLine(site, d.requested(), d.device(), d.depth(), d.reason()));
          djl = true;
        }
      }
      if (lines.isEmpty()) {
        return;
      }
      Log.warn(Advice.HEADER);
      for (String l : lines) {
        Log.warn(l);
      }
      Log.warn(Advice.FLAG + flag(presets, djl));
    } catch (Throwable t) {
      Log.warn("what a budget would have done cannot be said (" + t + ")");
    }
  }

  /** A cache site that held memory, with its line, ranked by what it held. */
  private record Row(long rank, String preset, String line) {}

  private List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    for (String site : engine.siteNames(true)) {
      SiteTotals t = engine.totals(site);
      long[] peak = peaks.get(site);
      if (t == null || peak == null) {
        continue;
      }
      SiteSummaryEvent.Counts c = t.counts();
      long declinedBytes = c.declinedBytes();
      if (c.admittedBytes() == 0 && declinedBytes == 0) {
        continue; // it held nothing
      }
      String preset = presetOf.get(site);
      String line =
          Advice.cacheLine(
              site,
              peak[0],
              peak[1],
              t.tier() == null ? "heap" : t.tier().label(),
              t.tier() == null ? -1 : engine.budget(t.tier()),
              c.wouldDeclines(),
              declinedBytes,
              preset);
      rows.add(new Row(peak[0] + declinedBytes, preset, line));
    }
    rows.sort(java.util.Comparator.comparingLong(Row::rank).reversed());
    return rows;
  }

  /**
   * Returns the flag that budgets what was observed: the agent jar as the job was started with it,
   * the arguments it was given, and the presets (and {@code djl=on}) of the sites that held memory.
   */
  private String flag(Set<String> presets, boolean djl) {
    List<String> args = new ArrayList<>();
    for (Setting s : config.settings().values()) {
      if (s.source() == Setting.Source.AGENT_ARGS) {
        args.add(s.key() + "=" + s.value());
      }
    }
    return Advice.flag(jarAsStarted(), args, presets, djl);
  }

  /** Returns the agent jar's path as the job named it ({@code -javaagent:PATH}), else its own. */
  static String jarAsStarted() {
    try {
      String named = Advice.jarNamedIn(ManagementFactory.getRuntimeMXBean().getInputArguments());
      if (named != null) {
        return named;
      }
      // Attached: the jar this class was loaded from (appended to the boot class path by its
      // manifest's Boot-Class-Path), an absolute path.
      java.net.URL self =
          ClassLoader.getSystemResource(
              ObservedAdvice.class.getName().replace('.', '/') + ".class");
      String url = self == null ? "" : self.toString();
      int bang = url.indexOf("!/");
      if (url.startsWith("jar:file:") && bang > 0) {
        String path =
            java.nio.file.Path.of(new java.net.URI(url.substring("jar:".length(), bang)))
                .toString();
        if (path.endsWith(Advice.JAR)) {
          return path;
        }
      }
    } catch (Throwable t) {
      // no management beans: the jar's name alone
    }
    return Advice.JAR;
  }
}
