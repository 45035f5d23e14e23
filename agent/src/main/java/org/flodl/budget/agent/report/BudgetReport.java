package org.flodl.budget.agent.report;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a recording says about the budget, gathered in one pass over its events: per cache site
 * the decisions and bytes (from the per-decision events, or from the periodic site summaries when
 * those saw more), per prefetch and ring site the depths chosen and why, each tier's held and
 * budget bytes over time, the agent's effective configuration and what it wove.
 */
final class BudgetReport {
  static final String CACHE_ADMISSION = org.flodl.budget.events.CacheAdmissionEvent.NAME;
  static final String PREFETCH_DEPTH = org.flodl.budget.events.PrefetchDepthEvent.NAME;
  static final String RING_SLOTS = org.flodl.budget.events.RingSlotsEvent.NAME;
  static final String RAM_BUDGET = org.flodl.budget.events.RamBudgetEvent.NAME;
  static final String STAGER_SPLIT = org.flodl.budget.events.StagerSplitEvent.NAME;
  static final String RELEASE = org.flodl.budget.events.ReleaseEvent.NAME;
  static final String MEMORY_PROBE = org.flodl.budget.events.MemoryProbeEvent.NAME;
  static final String SITE_SUMMARY = org.flodl.budget.events.SiteSummaryEvent.NAME;
  static final String INSTRUMENTED = org.flodl.budget.events.InstrumentedEvent.NAME;
  static final String CONFIGURATION = org.flodl.budget.events.ConfigurationEvent.NAME;

  /** The tiers a memory probe reports, in the order the report shows them. */
  static final List<String> TIERS = List.of("heap", "direct", "native", "mapped", "device");

  final Path file;
  Instant start;
  Instant end;
  long events;
  final Map<String, Long> flodlCounts = new TreeMap<>();
  final Map<String, CacheSite> cacheSites = new TreeMap<>();
  final Map<String, DepthSite> prefetchSites = new TreeMap<>();
  final Map<String, DepthSite> ringSites = new TreeMap<>();
  final Map<String, TierSeries> tiers = new LinkedHashMap<>();
  final List<Point> vramUsed = new ArrayList<>();
  final List<Point> vramTotal = new ArrayList<>();
  final Map<String, Setting> configuration = new TreeMap<>();
  final Map<String, Long> instrumented = new TreeMap<>();
  final List<String> instrumentProblems = new ArrayList<>();
  final Map<String, RecordedEvent> lastBudget = new TreeMap<>();
  final Map<String, Long> budgetCounts = new TreeMap<>();
  RecordedEvent lastSplit;
  long probes;
  /** The facts the findings are drawn from: the same law as Mission Control's rules. */
  final org.flodl.budget.findings.Facts facts = new org.flodl.budget.findings.Facts();
  private final JdkFields fields = new JdkFields();

  private BudgetReport(Path file) {
    this.file = file;
    for (String tier : TIERS) {
      tiers.put(tier, new TierSeries(tier));
    }
  }

  /**
   * Returns the report of {@code path}: a recording file, or a folder of them (a JFR repository a
   * killed JVM left, its chunks read in name order). A file that ends early (the JVM was killed
   * while writing it) gives the events before the break, said in {@link #truncated}; an
   * IOException when nothing at all can be read.
   */
  static BudgetReport read(Path path) throws IOException {
    BudgetReport report = new BudgetReport(path);
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(path)) {
      try (var list = Files.list(path)) {
        list.filter(f -> f.getFileName().toString().endsWith(".jfr")).sorted()
            .forEach(files::add);
      }
      if (files.isEmpty()) {
        throw new IOException("no .jfr files in the folder");
      }
    } else {
      files.add(path);
    }
    IOException first = null;
    for (Path f : files) {
      Path readable = null;
      try {
        readable = Chunks.readable(f);
        if (readable == null) {
          continue; // a chunk the recorder had begun and never flushed
        }
        try (RecordingFile recording = new RecordingFile(readable)) {
          while (recording.hasMoreEvents()) {
            report.accept(recording.readEvent());
          }
        }
      } catch (IOException | RuntimeException e) {
        // a chunk the JVM was killed while writing: read what there is of the others
        if (first == null) {
          first = e instanceof IOException io ? io : new IOException(e.toString(), e);
        }
        report.truncated = (files.size() > 1 ? f.getFileName() + ": " : "")
            + Format.orElse(e.getMessage(), e.getClass().getSimpleName());
      } finally {
        if (readable != null && !readable.equals(f)) {
          Files.deleteIfExists(readable);
        }
      }
    }
    if (report.events == 0 && first != null) {
      throw first;
    }
    report.finish();
    return report;
  }

  /** Why the recording ended before its end (a killed JVM's last chunk), or null. */
  String truncated;

  /** Returns the findings of every rule (the JMC rules' too). */
  List<org.flodl.budget.findings.Finding> findings() {
    return org.flodl.budget.findings.Findings.of(facts);
  }

  /** Returns the number of flodl events read. */
  long flodlEvents() {
    return flodlCounts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Returns the recording's span in seconds (0 when it has no events). */
  double seconds() {
    return start == null ? 0 : Duration.between(start, end).toNanos() / 1e9;
  }

  /** Returns the seconds from the recording's start to {@code time}. */
  double at(Instant time) {
    return Duration.between(start, time).toNanos() / 1e9;
  }

  private void accept(RecordedEvent e) {
    facts.accept(fields.of(e));
    events++;
    Instant s = e.getStartTime();
    Instant t = e.getEndTime();
    start = start == null || s.isBefore(start) ? s : start;
    end = end == null || t.isAfter(end) ? t : end;
    String name = e.getEventType().getName();
    if (!name.startsWith("flodl.")) {
      return;
    }
    flodlCounts.merge(name, 1L, Long::sum);
    switch (name) {
      case CACHE_ADMISSION:
        admission(e);
        break;
      case SITE_SUMMARY:
        summary(e);
        break;
      case RELEASE:
        release(e);
        break;
      case PREFETCH_DEPTH:
        depth(prefetchSites, e, num(e, "requestedDepth"), num(e, "depth"),
            text(e, "device"), num(e, "batchBytes"));
        break;
      case RING_SLOTS:
        depth(ringSites, e, -1, num(e, "slots"), null, num(e, "perSampleBytes") * num(e, "batchSize"));
        break;
      case MEMORY_PROBE:
        probe(e);
        break;
      case RAM_BUDGET:
        String tier = lower(text(e, "tier"));
        lastBudget.merge(tier, e, (a, b) -> a.getStartTime().isAfter(b.getStartTime()) ? a : b);
        budgetCounts.merge(tier, 1L, Long::sum);
        break;
      case STAGER_SPLIT:
        if (lastSplit == null || !e.getStartTime().isBefore(lastSplit.getStartTime())) {
          lastSplit = e;
        }
        break;
      case CONFIGURATION:
        Setting setting = new Setting(text(e, "key"), text(e, "value"), text(e, "source"), s);
        configuration.merge(setting.key, setting, (a, b) -> b.time.isBefore(a.time) ? a : b);
        break;
      case INSTRUMENTED:
        String outcome = Format.orElse(text(e, "outcome"), "UNKNOWN");
        instrumented.merge(outcome, 1L, Long::sum);
        if (!outcome.equalsIgnoreCase("WOVEN")) {
          instrumentProblems.add(outcome + " " + text(e, "className") + " (site "
              + Format.orElse(text(e, "site"), "?") + ")"
              + (Format.orElse(text(e, "message"), "").isEmpty() ? "" : ": " + text(e, "message")));
        }
        break;
      default:
        break;
    }
  }

  private void admission(RecordedEvent e) {
    CacheSite site = cacheSite(text(e, "site"));
    site.tier = lower(text(e, "tier"));
    String decision = Format.orElse(text(e, "decision"), "").toUpperCase(Locale.ROOT);
    long charged = num(e, "chargedBytes");
    long held = num(e, "heldBytes");
    long budget = num(e, "budgetBytes");
    // A sampled event stands for the decisions of its kind since the last one (older
    // recordings: for itself); its price stands for theirs.
    long w = Math.max(1, num(e, "decisions"));
    PerDecision d = site.decisions;
    if (e.hasField("estimated") && e.getBoolean("estimated")) {
      d.estimated += w;
    }
    boolean admitted = decision.equals("ADMIT") || decision.equals("ADMIT_MATERIALIZED");
    boolean declined = decision.equals("DECLINE") || decision.equals("WOULD_DECLINE");
    if (admitted) {
      d.admissions += w;
      d.admittedBytes += charged * w;
      if (decision.equals("ADMIT_MATERIALIZED")) {
        d.materialized += w;
        d.materializedBytes += charged * w;
      }
    } else if (declined) {
      // WOULD_DECLINE: observe mode admitted it anyway; counted with the declines
      d.declines += w;
      d.declinedBytes += charged * w;
      d.wouldDeclines += decision.equals("WOULD_DECLINE") ? w : 0;
      // a value priced at nothing always fits: a decline at 0 bytes is one the pricer could not price
      d.unpriced += charged == 0 && num(e, "logicalBytes") == 0 ? w : 0;
    } else if (decision.equals("ALREADY_HELD")) {
      d.alreadyHeld += w;
    } else {
      d.other += w;
    }
    if (!decision.equals("DECLINE")) {
      // held grows by what is kept: the peak is such a decision, with the budget it was taken
      // against (a decline at the same held bytes may report a budget a probe shrank since)
      site.decisionPeak(held, budget);
    }
    addDecision(site.tier, new Point(e.getStartTime(), held, budget));
  }

  private void summary(RecordedEvent e) {
    CacheSite site = cacheSite(text(e, "site"));
    String tier = lower(text(e, "tier"));
    if (!tier.isEmpty()) {
      site.tier = tier;
    }
    PerDecision s = site.summaries;
    s.admissions += num(e, "admissions");
    s.declines += num(e, "declines");
    s.wouldDeclines += Math.max(0, num(e, "wouldDeclines"));
    s.alreadyHeld += Math.max(0, num(e, "alreadyHeld"));
    if (e.hasField("releases")) {
      site.summaryReleases += num(e, "releases");
      site.summaryCollected += num(e, "collected");
      site.summaryCollectedBytes += num(e, "collectedBytes");
    }
    s.materialized += num(e, "materialized");
    s.admittedBytes += num(e, "admittedBytes");
    s.declinedBytes += num(e, "declinedBytes");
    s.materializedBytes += num(e, "materializedBytes");
    s.estimated += num(e, "estimated");
    s.unpriced += num(e, "unpriced");
    site.summaryReleasedBytes += num(e, "releasedBytes");
    site.summaryCount++;
    site.summaryPeak(num(e, "heldBytes"), num(e, "budgetBytes"));
    addDecision(site.tier, new Point(e.getStartTime(), num(e, "heldBytes"), num(e, "budgetBytes")));
  }

  private void release(RecordedEvent e) {
    CacheSite site = cacheSite(text(e, "site"));
    String tier = lower(text(e, "tier"));
    if (site.tier.isEmpty()) {
      site.tier = tier;
    }
    long w = Math.max(1, num(e, "decisions"));
    site.releasedByCause.merge(Format.orElse(text(e, "cause"), "UNKNOWN"), num(e, "bytes") * w,
        Long::sum);
    addDecision(tier, new Point(e.getStartTime(), num(e, "heldBytes"), -1));
  }

  private void depth(Map<String, DepthSite> sites, RecordedEvent e, long requested, long depth,
      String device, long batchBytes) {
    String name = Format.orElse(text(e, "site"), "(unnamed)");
    DepthSite site = sites.computeIfAbsent(name, DepthSite::new);
    if (device != null && !device.isEmpty()) {
      site.device = device;
    }
    site.points.add(new DepthPoint(e.getStartTime(), requested, depth,
        Format.orElse(text(e, "reason"), "UNKNOWN"), batchBytes));
  }

  private void probe(RecordedEvent e) {
    probes++;
    Instant t = e.getStartTime();
    for (String tier : TIERS) {
      long held = num(e, tier + "HeldBytes");
      long budget = num(e, tier + "BudgetBytes");
      long available = num(e, tier + "AvailableBytes");
      if (held >= 0 || budget >= 0) {
        tiers.get(tier).probes.add(new Point(t, held, budget, available));
      }
    }
    if (num(e, "vramTotalBytes") > 0) {
      vramUsed.add(new Point(t, num(e, "vramUsedBytes"), -1));
      vramTotal.add(new Point(t, num(e, "vramTotalBytes"), -1));
    }
  }

  /** Adds a decision's reading to {@code tier}'s series; a nameless tier's readings go nowhere. */
  private void addDecision(String tier, Point p) {
    if (!tier.isEmpty()) {
      tiers.computeIfAbsent(tier, TierSeries::new).addDecision(p);
    }
  }

  private CacheSite cacheSite(String name) {
    return cacheSites.computeIfAbsent(Format.orElse(name, "(unnamed)"), CacheSite::new);
  }

  private void finish() {
    Comparator<Point> byTime = Comparator.comparing(p -> p.time);
    for (TierSeries series : tiers.values()) {
      series.probes.sort(byTime);
      series.decisions.sort(byTime);
      // a release records held but not the budget: carry the last budget forward
      long budget = -1;
      List<Point> filled = new ArrayList<>(series.decisions.size());
      for (Point p : series.decisions) {
        budget = p.budget >= 0 ? p.budget : budget;
        filled.add(new Point(p.time, p.held, budget));
      }
      series.decisions.clear();
      series.decisions.addAll(filled);
    }
    vramUsed.sort(byTime);
    vramTotal.sort(byTime);
    for (DepthSite site : prefetchSites.values()) {
      site.points.sort(Comparator.comparing(p -> p.time));
    }
    for (DepthSite site : ringSites.values()) {
      site.points.sort(Comparator.comparing(p -> p.time));
    }
  }

  /** Returns a numeric field, or -1 when this recording's version of the event lacks it. */
  static long num(RecordedEvent e, String field) {
    return e.hasField(field) ? e.getLong(field) : -1;
  }

  /** Returns a fraction field, or NaN when this recording's version of the event lacks it. */
  static double fraction(RecordedEvent e, String field) {
    return e.hasField(field) ? e.getDouble(field) : Double.NaN;
  }

  private static String text(RecordedEvent e, String field) {
    return e.hasField(field) ? e.getString(field) : null;
  }

  private static String lower(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT);
  }

  /** Counts and bytes of one source of cache decisions. */
  static final class PerDecision {
    long admissions;
    long declines;
    long wouldDeclines;
    long materialized;
    long estimated;
    long unpriced;
    long other;
    long alreadyHeld;
    long admittedBytes;
    long declinedBytes;
    long materializedBytes;

    long total() {
      return admissions + declines;
    }
  }

  /** Returns the notes every view of the report gives a cache site's counts. */
  static List<String> notes(CacheSite site, PerDecision c) {
    List<String> notes = new ArrayList<>();
    if (c.wouldDeclines > 0) {
      notes.add(site.name + ": " + Format.count(c.wouldDeclines)
          + " of the declines were WOULD_DECLINE (observe mode kept them)");
    }
    if (c.estimated > 0) {
      notes.add(site.name + ": " + Format.count(c.estimated) + " prices were estimated (the "
          + "pricer's walk reached its bound and extrapolated the rest)");
    }
    if (c.unpriced > 0) {
      notes.add(site.name + ": " + Format.count(c.unpriced) + " values could not be priced and "
          + "were declined (stderr says why)");
    }
    return notes;
  }

  /** One cache site: its decisions, releases and the peak its tier held against the budget. */
  static final class CacheSite {
    final String name;
    String tier = "";
    final PerDecision decisions = new PerDecision();
    final PerDecision summaries = new PerDecision();
    long summaryCount;
    long summaryReleasedBytes;
    long summaryReleases;
    long summaryCollected;
    long summaryCollectedBytes;
    final Map<String, Long> releasedByCause = new TreeMap<>();
    private final long[] decisionPeak = {-1, -1};
    private final long[] summaryPeak = {-1, -1};

    CacheSite(String name) {
      this.name = name;
    }

    /** Notes the tier's held bytes and budget after a decision. */
    void decisionPeak(long held, long budget) {
      peak(decisionPeak, held, budget);
    }

    /** Notes the tier's held bytes and budget at a site summary. */
    void summaryPeak(long held, long budget) {
      peak(summaryPeak, held, budget);
    }

    private static void peak(long[] peak, long held, long budget) {
      if (held > peak[0]) {
        peak[0] = held;
        peak[1] = budget;
      }
    }

    /** Returns the most the tier held, after a decision or at a summary. */
    long peakHeld() {
      return Math.max(decisionPeak[0], summaryPeak[0]);
    }

    /**
     * Returns the budget when the tier held the most. Where a decision reached the peak it is the
     * budget that decision was taken against; where only a summary saw it (a recording without
     * the per-decision events), the budget then, which a probe reading may have shrunk below what
     * is held.
     */
    long budgetAtPeak() {
      return decisionPeak[0] >= 0 && decisionPeak[0] >= summaryPeak[0] ? decisionPeak[1]
          : summaryPeak[1];
    }

    /**
     * Returns true when the counts come from the periodic summaries, the exact ledger: whenever a
     * recording has them (older recordings' summaries were not exact, and give way to the
     * per-decision events when those saw more).
     */
    boolean fromSummaries() {
      return summaryCount > 0 && (summaryReleases > 0 || summaries.total() >= decisions.total());
    }

    /** Returns the source with the most decisions: per-decision events unless summaries saw more. */
    PerDecision counts() {
      return fromSummaries() ? summaries : decisions;
    }

    long releasedBytes() {
      if (summaryCount > 0) {
        return summaryReleasedBytes;
      }
      return releasedByCause.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Returns the bytes released by each cause: the summaries' where they say, else the events'. */
    Map<String, Long> releasedByCause() {
      if (summaryReleases > 0) {
        Map<String, Long> m = new TreeMap<>();
        if (summaryCollectedBytes > 0) {
          m.put("COLLECTED", summaryCollectedBytes);
        }
        if (summaryReleasedBytes - summaryCollectedBytes > 0) {
          m.put("RELEASE_SITE", summaryReleasedBytes - summaryCollectedBytes);
        }
        return m;
      }
      return releasedByCause;
    }
  }

  /** A held, budget and (from the memory probe) available reading at a time; -1 is unknown. */
  static final class Point {
    final Instant time;
    final long held;
    final long budget;
    final long available;

    Point(Instant time, long held, long budget) {
      this(time, held, budget, -1);
    }

    Point(Instant time, long held, long budget, long available) {
      this.time = time;
      this.held = held;
      this.budget = budget;
      this.available = available;
    }
  }

  /** One tier's held and budget over time: from the memory probe, and from the decisions. */
  static final class TierSeries {
    static final int MAX_DECISION_POINTS = 50_000;
    final String tier;
    final List<Point> probes = new ArrayList<>();
    final List<Point> decisions = new ArrayList<>();

    TierSeries(String tier) {
      this.tier = tier;
    }

    /**
     * Adds one decision's reading. A cache that decides millions of times would fill memory, so
     * past {@link #MAX_DECISION_POINTS} neighbouring readings are merged in pairs, keeping the one
     * that held more: the chart keeps its peaks, the report its peak.
     */
    void addDecision(Point p) {
      decisions.add(p);
      if (decisions.size() >= MAX_DECISION_POINTS) {
        decisions.sort(Comparator.comparing(q -> q.time));
        List<Point> merged = new ArrayList<>(decisions.size() / 2 + 1);
        for (int i = 0; i < decisions.size(); i += 2) {
          Point a = decisions.get(i);
          Point b = i + 1 < decisions.size() ? decisions.get(i + 1) : a;
          Point keep = b.held > a.held ? b : a;
          merged.add(keep.budget >= 0 ? keep : new Point(keep.time, keep.held,
              a.budget >= 0 ? a.budget : b.budget));
        }
        decisions.clear();
        decisions.addAll(merged);
      }
    }

    /**
     * Returns the series to chart: the one with more readings (a cache's decisions are finer than
     * a probe reading a second; with the per-decision events off, the probe and the summaries).
     */
    List<Point> best() {
      return decisions.size() > probes.size() ? decisions : probes;
    }

    /** Returns whether the tier held anything or had a site deciding on it. */
    boolean used() {
      return !decisions.isEmpty() || peakHeld() > 0;
    }

    /** Returns the reading that held the most, over the probe's and the decisions' series. */
    private Point peak() {
      Point peak = null;
      for (List<Point> series : List.of(decisions, probes)) {
        for (Point p : series) {
          if (peak == null || p.held > peak.held || (p.held == peak.held && peak.budget < 0)) {
            peak = p;
          }
        }
      }
      return peak;
    }

    long peakHeld() {
      Point peak = peak();
      return peak == null ? -1 : peak.held;
    }

    long budgetAtPeak() {
      Point peak = peak();
      return peak == null ? -1 : peak.budget;
    }

    /** Returns the latest known budget, over both series. */
    long lastBudget() {
      Point last = null;
      for (List<Point> series : List.of(decisions, probes)) {
        for (Point p : series) {
          if (p.budget >= 0 && (last == null || !p.time.isBefore(last.time))) {
            last = p;
          }
        }
      }
      return last == null ? -1 : last.budget;
    }

    /** Returns the readings of the probe's available bytes for this tier. */
    List<Point> available() {
      List<Point> out = new ArrayList<>();
      for (Point p : probes) {
        if (p.available >= 0) {
          out.add(p);
        }
      }
      return out;
    }
  }

  /** One depth (or ring) decision. */
  static final class DepthPoint {
    final Instant time;
    final long requested;
    final long depth;
    final String reason;
    final long batchBytes;

    DepthPoint(Instant time, long requested, long depth, String reason, long batchBytes) {
      this.time = time;
      this.requested = requested;
      this.depth = depth;
      this.reason = reason;
      this.batchBytes = batchBytes;
    }
  }

  /** A prefetch or ring site: its decisions in time order. */
  static final class DepthSite {
    final String name;
    String device = "";
    final List<DepthPoint> points = new ArrayList<>();

    DepthSite(String name) {
      this.name = name;
    }
  }

  /** One effective setting and where it came from. */
  static final class Setting {
    final String key;
    final String value;
    final String source;
    final Instant time;

    Setting(String key, String value, String source, Instant time) {
      this.key = Format.orElse(key, "?");
      this.value = value == null ? "" : value;
      this.source = Format.orElse(source, "?");
      this.time = time;
    }
  }
}
