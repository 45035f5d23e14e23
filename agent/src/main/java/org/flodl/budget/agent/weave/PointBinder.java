package org.flodl.budget.agent.weave;

/**
 * Gives the gate a point for a body the weaver found in a supertype of a site's type: it belongs to
 * the rule's site and decides only for receivers that are instances of {@code receiverType}.
 */
public interface PointBinder {
  /** Returns the new point's id. */
  int bindSupertypeBody(Rule rule, String receiverType);
}
