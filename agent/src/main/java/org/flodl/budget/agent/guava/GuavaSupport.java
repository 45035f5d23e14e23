package org.flodl.budget.agent.guava;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * Guava's caches, budgeted by preset {@code guava} alone: its sites file says all of it ({@code
 * docs/presets/guava.md}).
 */
public final class GuavaSupport extends PresetLibrary {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public GuavaSupport() {
    super(
        "guava",
        "every Guava cache's put and loads",
        "com/google/common/cache/",
        "com/google/common/cache/Cache");
  }
}
