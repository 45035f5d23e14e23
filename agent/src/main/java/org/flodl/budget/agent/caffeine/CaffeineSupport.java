package org.flodl.budget.agent.caffeine;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * Caffeine 2.x and 3.x, budgeted by preset {@code caffeine} alone: its sites file says all of it
 * ({@code docs/presets/caffeine.md}).
 */
public final class CaffeineSupport extends PresetLibrary {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public CaffeineSupport() {
    super(
        "caffeine",
        "every Caffeine cache's put and loads",
        "com/github/benmanes/caffeine/cache/",
        "com/github/benmanes/caffeine/cache/Cache");
  }
}
