package org.flodl.budget.agent.config;

import java.util.Locale;

/**
 * How a prefetch-depth decision is applied: {@code cap} only lowers the requested depth (the
 * double-buffer floor still holds), {@code auto} uses the policy's depth capped at the epoch.
 */
public enum PrefetchPolicy {
  CAP,
  AUTO;

  /** Returns the lower-case name used in arguments and events. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
