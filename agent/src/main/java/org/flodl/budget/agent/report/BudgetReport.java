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
  final Map<String, CacheLedger> cacheSites = new TreeMap<>();
  final Map<String, DepthHistory> prefetchSites = new TreeMap<>();
  final Map<String, DepthHistory> ringSites = new TreeMap<>();
  final Map<String, TierSeries> tiers = new LinkedHashMap<>();
  final List<Reading> vramUsed = new ArrayList<>();
  final List<Reading> vramTotal = new ArrayList<>();
  final Map<String, RecordedSetting> configuration = new TreeMap<>();
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
        RecordedSetting setting =
            new RecordedSetting(text(e, "key"), text(e, "value"), text(e, "source"), s);
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
    CacheLedger site = cacheSite(text(e, "site"));
    site.tier = lower(text(e, "tier"));
    String decision = Format.orElse(text(e, "decision"), "").toUpperCase(Locale.ROOT);
    long charged = num(e, "chargedBytes");
    long held = num(e, "heldBytes");
    long budget = num(e, "budgetBytes");
    // A sampled event stands for the decisions of its kind since the last one (older
    // recordings: for itself); its price stands for theirs.
    long w = Math.max(1, num(e, "decisions"));
    DecisionCounts d = site.decisions;
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
    addDecision(site.tier, new Reading(e.getStartTime(), held, budget));
  }

  private void summary(RecordedEvent e) {
    CacheLedger site = cacheSite(text(e, "site"));
    String tier = lower(text(e, "tier"));
    if (!tier.isEmpty()) {
      site.tier = tier;
    }
    DecisionCounts s = site.summaries;
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
    addDecision(site.tier, new Reading(e.getStartTime(), num(e, "heldBytes"), num(e, "budgetBytes")));
  }

  private void release(RecordedEvent e) {
    CacheLedger site = cacheSite(text(e, "site"));
    String tier = lower(text(e, "tier"));
    if (site.tier.isEmpty()) {
      site.tier = tier;
    }
    long w = Math.max(1, num(e, "decisions"));
    site.releasedByCause.merge(Format.orElse(text(e, "cause"), "UNKNOWN"), num(e, "bytes") * w,
        Long::sum);
    addDecision(tier, new Reading(e.getStartTime(), num(e, "heldBytes"), -1));
  }

  private void depth(Map<String, DepthHistory> sites, RecordedEvent e, long requested, long depth,
      String device, long batchBytes) {
    String name = Format.orElse(text(e, "site"), "(unnamed)");
    DepthHistory site = sites.computeIfAbsent(name, DepthHistory::new);
    if (device != null && !device.isEmpty()) {
      site.device = device;
    }
    site.points.add(new DepthChoice(e.getStartTime(), requested, depth,
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
        tiers.get(tier).probes.add(new Reading(t, held, budget, available));
      }
    }
    if (num(e, "vramTotalBytes") > 0) {
      vramUsed.add(new Reading(t, num(e, "vramUsedBytes"), -1));
      vramTotal.add(new Reading(t, num(e, "vramTotalBytes"), -1));
    }
  }

  /** Adds a decision's reading to {@code tier}'s series; a nameless tier's readings go nowhere. */
  private void addDecision(String tier, Reading p) {
    if (!tier.isEmpty()) {
      tiers.computeIfAbsent(tier, TierSeries::new).addDecision(p);
    }
  }

  private CacheLedger cacheSite(String name) {
    return cacheSites.computeIfAbsent(Format.orElse(name, "(unnamed)"), CacheLedger::new);
  }

  private void finish() {
    for (TierSeries series : tiers.values()) {
      series.finish();
    }
    Comparator<Reading> byTime = Comparator.comparing(p -> p.time);
    vramUsed.sort(byTime);
    vramTotal.sort(byTime);
    for (DepthHistory site : prefetchSites.values()) {
      site.finish();
    }
    for (DepthHistory site : ringSites.values()) {
      site.finish();
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
}
