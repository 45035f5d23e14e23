package org.flodl.budget.agent.report;

/**
 * The counts and bytes of one source of a cache site's decisions: the per-decision events, or the
 * periodic site summaries. A {@code WOULD_DECLINE} (observe mode admitted it anyway) counts with
 * the declines.
 */
final class DecisionCounts {
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

  /** Returns the admissions and declines together. */
  long total() {
    return admissions + declines;
  }
}
