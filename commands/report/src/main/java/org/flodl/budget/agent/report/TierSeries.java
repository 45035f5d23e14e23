package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One tier's held bytes and budget over time, in two series: the memory probe's readings, and the
 * readings the cache decisions, summaries and releases carry. A cache that decides millions of
 * times keeps a bounded series that still holds its peaks.
 */
final class TierSeries {
  static final int MAX_DECISION_POINTS = 50_000;
  private static final Comparator<Reading> BY_TIME = Comparator.comparing(p -> p.time);
  final String tier;
  final List<Reading> probes = new ArrayList<>();
  final List<Reading> decisions = new ArrayList<>();

  TierSeries(String tier) {
    this.tier = tier;
  }

  /**
   * Adds one decision's reading. A cache that decides millions of times would fill memory, so past
   * {@link #MAX_DECISION_POINTS} neighbouring readings are merged in pairs, keeping the one that
   * held more: the chart keeps its peaks, the report its peak.
   */
  void addDecision(Reading p) {
    decisions.add(p);
    if (decisions.size() >= MAX_DECISION_POINTS) {
      decisions.sort(BY_TIME);
      List<Reading> merged = new ArrayList<>(decisions.size() / 2 + 1);
      for (int i = 0; i < decisions.size(); i += 2) {
        Reading a = decisions.get(i);
        Reading b = i + 1 < decisions.size() ? decisions.get(i + 1) : a;
        Reading keep = b.held > a.held ? b : a;
        merged.add(
            keep.budget >= 0
                ? keep
                : new Reading(keep.time, keep.held, a.budget >= 0 ? a.budget : b.budget));
      }
      decisions.clear();
      decisions.addAll(merged);
    }
  }

  /**
   * Puts both series in time order once the recording is read; a release records held but not the
   * budget, so each decision reading without one takes the last budget before it.
   */
  void finish() {
    probes.sort(BY_TIME);
    decisions.sort(BY_TIME);
    long budget = -1;
    List<Reading> filled = new ArrayList<>(decisions.size());
    for (Reading p : decisions) {
      budget = p.budget >= 0 ? p.budget : budget;
      filled.add(new Reading(p.time, p.held, budget));
    }
    decisions.clear();
    decisions.addAll(filled);
  }

  /**
   * Returns the series to chart: the one with more readings (a cache's decisions are finer than a
   * probe reading a second; with the per-decision events off, the probe and the summaries).
   */
  List<Reading> best() {
    return decisions.size() > probes.size() ? decisions : probes;
  }

  /** Returns whether the tier held anything or had a site deciding on it. */
  boolean used() {
    return !decisions.isEmpty() || peakHeld() > 0;
  }

  /** Returns the reading that held the most, over the probe's and the decisions' series. */
  private Reading peak() {
    Reading peak = null;
    for (List<Reading> series : List.of(decisions, probes)) {
      for (Reading p : series) {
        if (peak == null || p.held > peak.held || (p.held == peak.held && peak.budget < 0)) {
          peak = p;
        }
      }
    }
    return peak;
  }

  /** Returns the most the tier held, or -1 when nothing was read. */
  long peakHeld() {
    Reading peak = peak();
    return peak == null ? -1 : peak.held;
  }

  /** Returns the budget when the tier held the most, or -1 when unknown. */
  long budgetAtPeak() {
    Reading peak = peak();
    return peak == null ? -1 : peak.budget;
  }

  /** Returns the latest known budget, over both series. */
  long lastBudget() {
    Reading last = null;
    for (List<Reading> series : List.of(decisions, probes)) {
      for (Reading p : series) {
        if (p.budget >= 0 && (last == null || !p.time.isBefore(last.time))) {
          last = p;
        }
      }
    }
    return last == null ? -1 : last.budget;
  }

  /** Returns the readings of the probe's available bytes for this tier. */
  List<Reading> available() {
    List<Reading> out = new ArrayList<>();
    for (Reading p : probes) {
      if (p.available >= 0) {
        out.add(p);
      }
    }
    return out;
  }
}
