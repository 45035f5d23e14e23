package org.flodl.budget.agent.jcache;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * JCache (JSR 107), whatever its provider, budgeted by preset {@code jcache} alone: its sites file
 * says all of it ({@code docs/presets/jcache.md}).
 */
public final class JCacheSupport extends PresetLibrary {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public JCacheSupport() {
    super("jcache", "every JCache cache's put", "javax/cache/", "javax/cache/Cache");
  }
}
