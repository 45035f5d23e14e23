package org.flodl.budget.agent.report;

import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.events.Decision;

/**
 * Reads a recording's events, one at a time, into a {@link BudgetReport}: each cache decision,
 * summary and release into its site's ledger and its tier's series, each depth or ring decision
 * into its site's history, each probe reading into the tiers, and the budgets, the stager split,
 * the configuration and the weaving as the last of each or their counts; every event, flodl's or
 * the JDK's, into the facts the findings are drawn from.
 */
final class EventReader {
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

  private final BudgetReport report;
  private final JdkFields fields = new JdkFields();

  EventReader(BudgetReport report) {
    this.report = report;
  }

  /** Adds {@code e} to the report. */
  void accept(RecordedEvent e) {
    report.facts.accept(fields.of(e));
    report.events++;
    Instant s = e.getStartTime();
    Instant t = e.getEndTime();
    report.start = report.start == null || s.isBefore(report.start) ? s : report.start;
    report.end = report.end == null || t.isAfter(report.end) ? t : report.end;
    String name = e.getEventType().getName();
    if (!name.startsWith("flodl.")) {
      return;
    }
    report.flodlCounts.merge(name, 1L, Long::sum);
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
        depth(report.prefetchSites, e, num(e, "requestedDepth"), num(e, "depth"),
            text(e, "device"), num(e, "batchBytes"));
        break;
      case RING_SLOTS:
        depth(report.ringSites, e, -1, num(e, "slots"), null,
            num(e, "perSampleBytes") * num(e, "batchSize"));
        break;
      case MEMORY_PROBE:
        probe(e);
        break;
      case RAM_BUDGET:
        String tier = lower(text(e, "tier"));
        report.lastBudget.merge(tier, e,
            (a, b) -> a.getStartTime().isAfter(b.getStartTime()) ? a : b);
        report.budgetCounts.merge(tier, 1L, Long::sum);
        break;
      case STAGER_SPLIT:
        RecordedEvent split = report.lastSplit;
        if (split == null || !e.getStartTime().isBefore(split.getStartTime())) {
          report.lastSplit = e;
        }
        break;
      case CONFIGURATION:
        RecordedSetting setting =
            new RecordedSetting(text(e, "key"), text(e, "value"), text(e, "source"), s);
        report.configuration.merge(setting.key, setting,
            (a, b) -> b.time.isBefore(a.time) ? a : b);
        break;
      case INSTRUMENTED:
        String outcome = Format.orElse(text(e, "outcome"), "UNKNOWN");
        report.instrumented.merge(outcome, 1L, Long::sum);
        if (!outcome.equalsIgnoreCase("WOVEN")) {
          report.instrumentProblems.add(outcome + " " + text(e, "className") + " (site "
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
    Decision kind = Decision.of(decision);
    if (kind != null && kind.admitted()) {
      d.admissions += w;
      d.admittedBytes += charged * w;
      if (kind == Decision.ADMIT_MATERIALIZED) {
        d.materialized += w;
        d.materializedBytes += charged * w;
      }
    } else if (kind != null && kind.declined()) {
      // WOULD_DECLINE: observe mode admitted it anyway; counted with the declines
      d.declines += w;
      d.declinedBytes += charged * w;
      d.wouldDeclines += kind == Decision.WOULD_DECLINE ? w : 0;
      // a value priced at nothing always fits: a decline at 0 bytes is one the pricer could
      // not price
      d.unpriced += charged == 0 && num(e, "logicalBytes") == 0 ? w : 0;
    } else if (kind == Decision.ALREADY_HELD) {
      d.alreadyHeld += w;
    } else {
      d.other += w;
    }
    if (kind != Decision.DECLINE) {
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
    addDecision(site.tier,
        new Reading(e.getStartTime(), num(e, "heldBytes"), num(e, "budgetBytes")));
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
    report.probes++;
    Instant t = e.getStartTime();
    for (String tier : BudgetReport.TIERS) {
      long held = num(e, tier + "HeldBytes");
      long budget = num(e, tier + "BudgetBytes");
      long available = num(e, tier + "AvailableBytes");
      if (held >= 0 || budget >= 0) {
        report.tiers.get(tier).probes.add(new Reading(t, held, budget, available));
      }
    }
    if (num(e, "vramTotalBytes") > 0) {
      report.vramUsed.add(new Reading(t, num(e, "vramUsedBytes"), -1));
      report.vramTotal.add(new Reading(t, num(e, "vramTotalBytes"), -1));
    }
  }

  /** Adds a decision's reading to {@code tier}'s series; a nameless tier's readings go nowhere. */
  private void addDecision(String tier, Reading p) {
    if (!tier.isEmpty()) {
      report.tiers.computeIfAbsent(tier, TierSeries::new).addDecision(p);
    }
  }

  private CacheLedger cacheSite(String name) {
    return report.cacheSites.computeIfAbsent(Format.orElse(name, "(unnamed)"), CacheLedger::new);
  }

  /** Puts the report's series in time order once every event is read. */
  void finish() {
    for (TierSeries series : report.tiers.values()) {
      series.finish();
    }
    Comparator<Reading> byTime = Comparator.comparing(p -> p.time);
    report.vramUsed.sort(byTime);
    report.vramTotal.sort(byTime);
    for (DepthHistory site : report.prefetchSites.values()) {
      site.finish();
    }
    for (DepthHistory site : report.ringSites.values()) {
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
