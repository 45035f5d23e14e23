package org.flodl.budget.events;

/**
 * The category paths every flodl event is filed under in Mission Control's event browser: the root
 * {@code flodl}, then {@code Budget} for the policy's decisions and memory readings, {@code Agent}
 * for what the agent itself did.
 */
final class Categories {
  static final String ROOT = "flodl";
  static final String BUDGET = "Budget";
  static final String AGENT = "Agent";

  private Categories() {}
}
