package org.flodl.budget.agent.control;

/**
 * One memory tier as JMX shows it ({@code org.flodl.budget:type=Tier,name=TIER}: {@code heap},
 * {@code direct}, {@code native}, {@code mapped}, {@code device}): what the budgeted sites hold on
 * it now and its budget now.
 */
public interface TierControlMXBean {
  /** Returns the bytes the tier's admitted values hold now. */
  long getHeldBytes();

  /** Returns the tier's budget now. */
  long getBudgetBytes();
}
