package org.flodl.budget.agent.jcache;

import java.util.List;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.CopyKeeping;
import org.flodl.budget.agent.library.EntryHook;
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
   * listener of: every entry of a cache whose copies are followed leaves there; and at Caffeine's
   * provider's publishing of removals and expiries, where one entry does.
   */
  @Override
  public <T> List<T> hooks(Class<T> type) {
    if (type != EntryHook.class) {
      return List.of();
    }
    return List.of(
        type.cast(new Exits(CLEAR, false)),
        type.cast(new Exits(CLOSE, false)),
        type.cast(new Exits(PUBLISHED + "publishRemoved" + ENTRY, true)),
        type.cast(new Exits(PUBLISHED + "publishRemovedQuietly" + ENTRY, true)),
        type.cast(new Exits(PUBLISHED + "publishExpired" + ENTRY, true)),
        type.cast(new Exits(PUBLISHED + "publishExpiredQuietly" + ENTRY, true)));
  }

  /** The hook at {@code Cache.clear()}: every entry of the cache leaves. */
  private static final String CLEAR = "javax.cache.Cache#clear()";

  /** The hook at {@code Cache.close()}: every entry of the cache leaves. */
  private static final String CLOSE = "javax.cache.Cache#close()";

  /**
   * Caffeine's provider's event dispatcher, whose {@code publishRemoved}, {@code publishExpired}
   * and their quiet forms each removal, eviction and expiry of its caches passes through, with
   * {@code (cache, key, value)}, listener or not.
   */
  private static final String PUBLISHED =
      "com.github.benmanes.caffeine.jcache.event.EventDispatcher#";

  private static final String ENTRY = "(javax.cache.Cache,java.lang.Object,java.lang.Object)";

  /**
   * A hook at a method through which entries leave a cache: every entry of the receiver (a cache's
   * clear or close), or, where it reads the arguments ({@code one}), the entry of the key its
   * arguments name (Caffeine's publishing of a removal or an expiry: cache, key, value).
   */
  private record Exits(String method, boolean one) implements EntryHook {
    @Override
    public void enter(Object receiver) {
      if (!one) {
        Copies.FOLLOWER.allLeft(receiver);
      }
    }

    @Override
    public boolean readsArguments() {
      return one;
    }

    @Override
    public void enter(Object dispatcher, Object[] args) {
      if (args != null && args.length >= 2) {
        Copies.FOLLOWER.left(args[0], args[1]);
      }
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
