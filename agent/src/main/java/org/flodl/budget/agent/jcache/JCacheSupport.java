package org.flodl.budget.agent.jcache;

import org.flodl.budget.agent.library.PresetLibrary;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.agent.library.Witnesses;

/**
 * JCache (JSR 107), whatever its provider, budgeted by preset {@code jcache} ({@code
 * docs/presets/jcache.md}), and each cache's writer and listeners read by {@link JCacheWitnesses}.
 */
public final class JCacheSupport extends PresetLibrary {

  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public JCacheSupport() {
    super("jcache", "every JCache cache's put", "javax/cache/", "javax/cache/Cache");
  }

  @Override
  public Witnesses witnesses(Class<?> c) {
    return Types.supertypeNamed(c, "javax.cache.Cache") != null ? Lazy.WITNESSES : null;
  }

  /** The witnesses' reader, made at the first cache that asks (none at start). */
  private static final class Lazy {
    static final Witnesses WITNESSES = new JCacheWitnesses();
  }
}
