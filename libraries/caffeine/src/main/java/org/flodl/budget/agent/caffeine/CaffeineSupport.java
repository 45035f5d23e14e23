package org.flodl.budget.agent.caffeine;

import java.util.List;
import org.flodl.budget.agent.library.PresetLibrary;
import org.flodl.budget.agent.library.Witnesses;

/**
 * Caffeine 2.x and 3.x, budgeted by preset {@code caffeine} ({@code docs/presets/caffeine.md}), and
 * each cache's listeners and writer read by {@link CaffeineWitnesses}.
 */
public final class CaffeineSupport extends PresetLibrary {
  private static final String PACKAGE = "com.github.benmanes.caffeine.cache.";

  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public CaffeineSupport() {
    super(
        "caffeine",
        "every Caffeine cache's put and loads",
        "com/github/benmanes/caffeine/cache/",
        "com/github/benmanes/caffeine/cache/Cache");
  }

  @Override
  public List<String> uncoveredDoors() {
    return List.of(
        "com.github.benmanes.caffeine.cache.Cache#getAll",
        "com.github.benmanes.caffeine.cache.LoadingCache#getAll",
        "com.github.benmanes.caffeine.cache.LoadingCache#refresh",
        "com.github.benmanes.caffeine.cache.LoadingCache#refreshAll",
        "com.github.benmanes.caffeine.cache.AsyncCache#getAll",
        "com.github.benmanes.caffeine.cache.AsyncLoadingCache#getAll");
  }

  @Override
  public Witnesses witnesses(Class<?> c) {
    return c.getName().startsWith(PACKAGE) ? Lazy.WITNESSES : null;
  }

  /** The witnesses' reader, made at the first cache that asks (none at start). */
  private static final class Lazy {
    static final Witnesses WITNESSES = new CaffeineWitnesses();
  }
}
