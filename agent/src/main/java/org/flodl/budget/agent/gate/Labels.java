package org.flodl.budget.agent.gate;

import org.flodl.budget.policy.Tier;

/** Returns each tier's event label, computed once ({@link Tier#label()} lower-cases per call). */
final class Labels {
  private static final String[] TIERS = new String[Tier.values().length];

  static {
    for (Tier t : Tier.values()) {
      TIERS[t.ordinal()] = t.label();
    }
  }

  private Labels() {}

  /** Returns {@code tier.label()}. */
  static String of(Tier tier) {
    return TIERS[tier.ordinal()];
  }
}
