package org.flodl.budget.agent.control;

/**
 * One site as JMX shows it ({@code org.flodl.budget:type=Site,name=SITE}): for a cache-admit site
 * counters that only grow, from the agent's start (the sums of the recording's {@code SiteSummary}
 * events: one source for both), and gauges of what its values hold and its tier's budget; for a
 * prefetch-depth site its last depth, the depth asked and the reason.
 */
public interface SiteControlMXBean {
  /** Returns {@code cache-admit} or {@code prefetch-depth}. */
  String getKind();

  /** Returns the tier the site last decided on ({@code heap}, {@code direct}, ...). */
  String getTier();

  /** Returns the values admitted (plain and materialized). */
  long getAdmissions();

  /** Returns the bytes charged for admitted values. */
  long getAdmittedBytes();

  /** Returns the values declined (DECLINE and WOULD_DECLINE, unpriced ones included). */
  long getDeclines();

  /** Returns the bytes the declined values would have been charged. */
  long getDeclinedBytes();

  /** Returns the declines recorded as WOULD_DECLINE (observe mode). */
  long getWouldDeclines();

  /** Returns the admissions copied out of an over-slack view. */
  long getMaterializations();

  /** Returns the bytes charged for materialized copies. */
  long getMaterializedBytes();

  /** Returns the values given again while held already (charged nothing more). */
  long getAlreadyHeld();

  /** Returns the values that could not be priced (part of the declines). */
  long getUnpriced();

  /**
   * Returns the admitted values handed back (by a release site, collected, or their call threw).
   */
  long getReleases();

  /** Returns the bytes handed back. */
  long getReleasedBytes();

  /** Returns the releases of collected values (part of the releases). */
  long getCollected();

  /** Returns the bytes the site's values hold now. */
  long getHeldBytes();

  /** Returns the budget of the site's tier now. */
  long getBudgetBytes();

  /** Returns the last depth decided (a prefetch-depth site), or -1 before the first. */
  int getDepth();

  /** Returns the depth the application asked at the last decision, or -1. */
  int getRequestedDepth();

  /** Returns the last depth decision's reason ({@code CAPACITY}, {@code REQUESTED}, ...), or "". */
  String getDepthReason();
}
