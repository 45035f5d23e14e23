package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.flodl.budget.events.ReleaseCause;

/**
 * What a recording says of one cache site: its decisions counted twice (from the per-decision
 * events and from the periodic site summaries, the report showing the one that saw more), the bytes
 * it released and why, and the most its tier held after a decision or at a summary, with the budget
 * then.
 */
final class CacheLedger {
  final String name;
  String tier = "";
  final DecisionCounts decisions = new DecisionCounts();
  final DecisionCounts summaries = new DecisionCounts();
  long summaryCount;
  long summaryReleasedBytes;
  long summaryReleases;
  long summaryCollected;
  long summaryCollectedBytes;
  final Map<String, Long> releasedByCause = new TreeMap<>();
  private final long[] decisionPeak = {-1, -1};
  private final long[] summaryPeak = {-1, -1};

  /** Each summary's time, admissions and releases since the last, site held bytes and budget. */
  private final List<long[]> siteSummaries = new ArrayList<>();

  CacheLedger(String name) {
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

  /** Notes a summary: its time, the admissions and releases it counts, the site's held bytes. */
  void siteSummary(long nanos, long admissions, long releases, long held, long budget) {
    siteSummaries.add(new long[] {nanos, admissions, releases, held, budget});
  }

  /**
   * Returns the most the site itself held at a summary, the values it held then (its admissions
   * less its releases to that summary, in time order: a recording's events are not) and the budget
   * at the last summary; -1 budget where none was recorded.
   */
  long[] siteHeldPeak() {
    siteSummaries.sort(java.util.Comparator.comparingLong((long[] a) -> a[0]));
    long[] peak = {0, 0, -1};
    long values = 0;
    for (long[] s : siteSummaries) {
      values += s[1] - s[2];
      if (s[3] > peak[0]) {
        peak[0] = s[3];
        peak[1] = values;
      }
      peak[2] = s[4];
    }
    return peak;
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
   * budget that decision was taken against; where only a summary saw it (a recording without the
   * per-decision events), the budget then, which a probe reading may have shrunk below what is
   * held.
   */
  long budgetAtPeak() {
    return decisionPeak[0] >= 0 && decisionPeak[0] >= summaryPeak[0]
        ? decisionPeak[1]
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
  DecisionCounts counts() {
    return fromSummaries() ? summaries : decisions;
  }

  /** Returns the bytes released: the summaries' where there are any, else the events'. */
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
        m.put(ReleaseCause.COLLECTED.name(), summaryCollectedBytes);
      }
      if (summaryReleasedBytes - summaryCollectedBytes > 0) {
        m.put(ReleaseCause.RELEASE_SITE.name(), summaryReleasedBytes - summaryCollectedBytes);
      }
      return m;
    }
    return releasedByCause;
  }

  /** Returns the notes every view of the report gives this site's counts {@code c}. */
  List<String> notes(DecisionCounts c) {
    List<String> notes = new ArrayList<>();
    if (c.wouldDeclines > 0) {
      notes.add(
          name
              + ": "
              + Format.count(c.wouldDeclines)
              + " of the declines were WOULD_DECLINE (observe mode kept them)");
    }
    if (c.estimated > 0) {
      notes.add(
          name
              + ": "
              + Format.count(c.estimated)
              + " prices were estimated (the "
              + "pricer's walk reached its bound and extrapolated the rest)");
    }
    if (c.unpriced > 0) {
      notes.add(
          name
              + ": "
              + Format.count(c.unpriced)
              + " values could not be priced and "
              + "were declined (stderr says why)");
    }
    return notes;
  }
}
