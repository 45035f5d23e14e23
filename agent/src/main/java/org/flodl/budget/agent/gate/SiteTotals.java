package org.flodl.budget.agent.gate;

import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.Tier;

/**
 * A cache-admit site's counts from its start to now (what its {@code SiteSummary} events add up
 * to), the tier it last decided on and the bytes its values hold.
 */
public record SiteTotals(String site, Tier tier, SiteSummaryEvent.Counts counts, long heldBytes) {}
