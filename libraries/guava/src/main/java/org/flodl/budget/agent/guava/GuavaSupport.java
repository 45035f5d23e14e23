package org.flodl.budget.agent.guava;

import java.util.List;
import org.flodl.budget.agent.library.PresetLibrary;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.agent.library.Witnesses;

/**
 * Guava's caches, budgeted by preset {@code guava} ({@code docs/presets/guava.md}), and each
 * cache's removal listener read by {@link GuavaWitnesses}.
 */
public final class GuavaSupport extends PresetLibrary {
  private static final String PACKAGE = "com.google.common.cache.";

  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public GuavaSupport() {
    super(
        "guava",
        "every Guava cache's put and loads",
        "com/google/common/cache/",
        "com/google/common/cache/Cache");
  }

  @Override
  public List<String> uncoveredDoors() {
    return List.of("com.google.common.cache.LoadingCache#refresh");
  }

  @Override
  public Witnesses witnesses(Class<?> c) {
    return c.getName().startsWith(PACKAGE)
            || Types.supertypeNamed(c, PACKAGE + "ForwardingCache") != null
        ? Lazy.WITNESSES
        : null;
  }

  /** The witnesses' reader, made at the first cache that asks (none at start). */
  private static final class Lazy {
    static final Witnesses WITNESSES = new GuavaWitnesses();
  }
}
