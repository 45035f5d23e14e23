package org.flodl.budget.agent.ehcache;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * Ehcache 3, budgeted by preset {@code ehcache} alone: its sites file says all of it ({@code
 * docs/presets/ehcache.md}).
 */
public final class EhcacheSupport extends PresetLibrary {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public EhcacheSupport() {
    super("ehcache", "every Ehcache 3 cache's put", "org/ehcache/", "org/ehcache/Cache");
  }
}
