package org.flodl.budget.agent.jcache;

import java.util.List;
import org.flodl.budget.agent.gate.ArgumentAdapter;
import org.flodl.budget.agent.gate.EntryHook;
import org.flodl.budget.agent.library.CopyKeeping;
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
  public CopyKeeping copies(Class<?> c) {
    return Types.supertypeNamed(c, JCacheApi.CACHE) != null ? Copies.FOLLOWER : null;
  }

  /**
   * Returns the hooks at {@code Cache.clear()} and {@code Cache.close()}, which JCache tells no
   * listener of: every entry of a cache whose copies are followed leaves there.
   */
  @Override
  public <T> List<T> hooks(Class<T> type) {
    return type == EntryHook.class
        ? List.of(
            type.cast(new AllLeft(JCacheCopies.CLEAR)), type.cast(new AllLeft(JCacheCopies.CLOSE)))
        : List.of();
  }

  /** A hook at a method after which a cache holds no entry. */
  private record AllLeft(String method) implements EntryHook {
    @Override
    public void enter(Object cache) {
      Copies.FOLLOWER.allLeft(cache);
    }
  }

  /** The copies' follower, made at the first cache that needs it (none at start). */
  private static final class Copies {
    static final JCacheCopies FOLLOWER = new JCacheCopies();
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
