package org.flodl.budget.agent.jcache;

import java.util.List;
import org.flodl.budget.agent.gate.ArgumentAdapter;
import org.flodl.budget.agent.library.PresetLibrary;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.agent.library.Witnesses;

/**
 * JCache (JSR 107), whatever its provider, budgeted by preset {@code jcache} ({@code
 * docs/presets/jcache.md}): each cache's writer and listeners read by {@link JCacheWitnesses}, and
 * its entry processors' stores decided through {@link JCacheProcessors} ({@code adapter = jcache}).
 */
public final class JCacheSupport extends PresetLibrary {

  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public JCacheSupport() {
    super("jcache", "every JCache cache's put", "javax/cache/", "javax/cache/Cache");
  }

  @Override
  public String adapterKind() {
    return "cache-admit";
  }

  @Override
  public <T> T adapter(Class<T> type, String vramProbe) {
    return type == ArgumentAdapter.class ? type.cast(new JCacheProcessors()) : null;
  }

  @Override
  public List<String> uncoveredDoors() {
    return List.of("javax.cache.Cache#getAll", "javax.cache.Cache#loadAll");
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
