package org.flodl.budget.agent.gate;

import org.flodl.budget.policy.TierLedger;

/**
 * Where a holding's bytes go back: its site (which counts them) and the tier's ledger. One per site
 * and tier, shared by all the site's holdings on that tier, so a holding carries one reference for
 * both.
 */
record Account(CacheSite site, TierLedger ledger) {}
