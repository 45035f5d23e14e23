package org.flodl.budget.agent.report;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.BATCH_SIZE;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.BYTES;
import static org.flodl.budget.events.EventFields.CAUSE;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.COLLECTED;
import static org.flodl.budget.events.EventFields.COLLECTED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.ESTIMATED;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.MATERIALIZED_BYTES;
import static org.flodl.budget.events.EventFields.MESSAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.PER_SAMPLE_BYTES;
import static org.flodl.budget.events.EventFields.PROBE_AVAILABLE_SUFFIX;
import static org.flodl.budget.events.EventFields.PROBE_BUDGET_SUFFIX;
import static org.flodl.budget.events.EventFields.PROBE_HELD_SUFFIX;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.SITE_HELD_BYTES;
import static org.flodl.budget.events.EventFields.SLOTS;
import static org.flodl.budget.events.EventFields.SOURCE;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.UNPRICED;
import static org.flodl.budget.events.EventFields.VALUE;
import static org.flodl.budget.events.EventFields.VRAM_TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.VRAM_USED_BYTES;
import static org.flodl.budget.events.EventFields.WOULD_DECLINES;

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
      if (name.equals("jdk.JVMInformation") && e.hasField("jvmArguments")) {
        report.jvmArguments = Format.orElse(e.getString("jvmArguments"), "");
      }
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
        depth(
            report.prefetchSites,
            e,
            num(e, REQUESTED_DEPTH),
            num(e, DEPTH),
            text(e, DEVICE),
            num(e, BATCH_BYTES));
        break;
      case RING_SLOTS:
        depth(
            report.ringSites,
            e,
            -1,
            num(e, SLOTS),
            null,
            num(e, PER_SAMPLE_BYTES) * num(e, BATCH_SIZE));
        break;
      case MEMORY_PROBE:
        probe(e);
        break;
      case RAM_BUDGET:
        String tier = lower(text(e, TIER));
        report.lastBudget.merge(
            tier, e, (a, b) -> a.getStartTime().isAfter(b.getStartTime()) ? a : b);
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
            new RecordedSetting(text(e, KEY), text(e, VALUE), text(e, SOURCE), s);
        report.configuration.merge(setting.key, setting, (a, b) -> b.time.isBefore(a.time) ? a : b);
        break;
      case INSTRUMENTED:
        String outcome = Format.orElse(text(e, OUTCOME), "UNKNOWN");
        report.instrumented.merge(outcome, 1L, Long::sum);
        if (!outcome.equalsIgnoreCase("WOVEN")) {
          report.instrumentProblems.add(
              outcome
                  + " "
                  + text(e, CLASS_NAME)
                  + " (site "
                  + Format.orElse(text(e, SITE), "?")
                  + ")"
                  + (Format.orElse(text(e, MESSAGE), "").isEmpty() ? "" : ": " + text(e, MESSAGE)));
        }
        break;
      default:
        break;
    }
  }

  private void admission(RecordedEvent e) {
    CacheLedger site = cacheSite(text(e, SITE));
    site.tier = lower(text(e, TIER));
    String decision = Format.orElse(text(e, DECISION), "").toUpperCase(Locale.ROOT);
    long charged = num(e, CHARGED_BYTES);
    long held = num(e, HELD_BYTES);
    long budget = num(e, BUDGET_BYTES);
    // A sampled event stands for the decisions of its kind since the last one (older
    // recordings: for itself); its price stands for theirs.
    long w = Math.max(1, num(e, DECISIONS));
    DecisionCounts d = site.decisions;
    if (e.hasField(ESTIMATED) && e.getBoolean(ESTIMATED)) {
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
      d.unpriced += charged == 0 && num(e, LOGICAL_BYTES) == 0 ? w : 0;
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
    CacheLedger site = cacheSite(text(e, SITE));
    String tier = lower(text(e, TIER));
    if (!tier.isEmpty()) {
      site.tier = tier;
    }
    DecisionCounts s = site.summaries;
    s.admissions += num(e, ADMISSIONS);
    s.declines += num(e, DECLINES);
    s.wouldDeclines += Math.max(0, num(e, WOULD_DECLINES));
    s.alreadyHeld += Math.max(0, num(e, ALREADY_HELD));
    if (e.hasField(RELEASES)) {
      site.summaryReleases += num(e, RELEASES);
      site.summaryCollected += num(e, COLLECTED);
      site.summaryCollectedBytes += num(e, COLLECTED_BYTES);
    }
    s.materialized += num(e, MATERIALIZED);
    s.admittedBytes += num(e, ADMITTED_BYTES);
    s.declinedBytes += num(e, DECLINED_BYTES);
    s.materializedBytes += num(e, MATERIALIZED_BYTES);
    s.estimated += num(e, ESTIMATED);
    s.unpriced += num(e, UNPRICED);
    site.summaryReleasedBytes += num(e, RELEASED_BYTES);
    site.summaryCount++;
    site.summaryPeak(num(e, HELD_BYTES), num(e, BUDGET_BYTES));
    Instant at = e.getStartTime();
    site.siteSummary(
        at.getEpochSecond() * 1_000_000_000L + at.getNano(),
        num(e, ADMISSIONS),
        e.hasField(RELEASES) ? num(e, RELEASES) : 0,
        num(e, SITE_HELD_BYTES),
        num(e, BUDGET_BYTES));
    addDecision(site.tier, new Reading(e.getStartTime(), num(e, HELD_BYTES), num(e, BUDGET_BYTES)));
  }

  private void release(RecordedEvent e) {
    CacheLedger site = cacheSite(text(e, SITE));
    String tier = lower(text(e, TIER));
    if (site.tier.isEmpty()) {
      site.tier = tier;
    }
    long w = Math.max(1, num(e, DECISIONS));
    site.releasedByCause.merge(
        Format.orElse(text(e, CAUSE), "UNKNOWN"), num(e, BYTES) * w, Long::sum);
    addDecision(tier, new Reading(e.getStartTime(), num(e, HELD_BYTES), -1));
  }

  private void depth(
      Map<String, DepthHistory> sites,
      RecordedEvent e,
      long requested,
      long depth,
      String device,
      long batchBytes) {
    String name = Format.orElse(text(e, SITE), "(unnamed)");
    DepthHistory site = sites.computeIfAbsent(name, DepthHistory::new);
    if (device != null && !device.isEmpty()) {
      site.device = device;
    }
    site.points.add(
        new DepthChoice(
            e.getStartTime(),
            requested,
            depth,
            Format.orElse(text(e, REASON), "UNKNOWN"),
            batchBytes));
  }

  private void probe(RecordedEvent e) {
    report.probes++;
    Instant t = e.getStartTime();
    for (String tier : BudgetReport.TIERS) {
      long held = num(e, tier + PROBE_HELD_SUFFIX);
      long budget = num(e, tier + PROBE_BUDGET_SUFFIX);
      long available = num(e, tier + PROBE_AVAILABLE_SUFFIX);
      if (held >= 0 || budget >= 0) {
        report.tiers.get(tier).probes.add(new Reading(t, held, budget, available));
      }
    }
    if (num(e, VRAM_TOTAL_BYTES) > 0) {
      report.vramUsed.add(new Reading(t, num(e, VRAM_USED_BYTES), -1));
      report.vramTotal.add(new Reading(t, num(e, VRAM_TOTAL_BYTES), -1));
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
