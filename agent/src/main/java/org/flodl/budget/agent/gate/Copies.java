package org.flodl.budget.agent.gate;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.CopyKeeping;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;

/**
 * The caches that keep a copy of what they are handed (JCache's store-by-value caches, as their
 * library tells: {@link CopyKeeping}). The application drops its object after the put while the
 * cache keeps the copy, so an admitted value's charge is held by the cache's entry: a token per
 * entry, tracked by the holdings in the value's place, handed back exactly once when the entry
 * leaves: the cache says so (its library's protocol, subscribed at the cache's first admission),
 * another admitted value replaces it, the cache is cleared or closed, or the cache itself is
 * collected (its tokens then with it). A cache whose copies cannot be followed keeps the holding by
 * the application's object, said once per site. Looked up per admission by the cache's identity, no
 * lock held.
 */
final class Copies {
  /** What a cache that stores the objects it is handed maps to. */
  private static final Object BY_REFERENCE = new Object();

  private static final ClassValue<CopyKeeping> KEEPING =
      new ClassValue<>() {
        @Override
        protected CopyKeeping computeValue(Class<?> c) {
          for (Library l : Library.all()) {
            try {
              CopyKeeping k = l.copies(c);
              if (k != null) {
                return k;
              }
            } catch (RuntimeException | LinkageError e) {
              return null; // a support that cannot tell: held by the application's object
            }
          }
          return null;
        }
      };

  private final Holdings holdings;
  private final Map<Object, Object> caches = new ConcurrentHashMap<>();
  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

  Copies(Holdings holdings) {
    this.holdings = holdings;
  }

  /** One charge, held by the entries of its keys (one, or a {@code putAll}'s). */
  static final class Token {
    private final AtomicInteger keys;

    Token(int keys) {
      this.keys = new AtomicInteger(Math.max(1, keys));
    }

    /** Returns whether the last of its keys left now. */
    boolean leave() {
      return keys.decrementAndGet() == 0;
    }
  }

  /** A cache's identity, weakly: equal to another key of the same cache. */
  private static final class Key extends WeakReference<Object> {
    private final int hash;

    Key(Object cache, ReferenceQueue<Object> q) {
      super(cache, q);
      this.hash = System.identityHashCode(cache);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o == this || o instanceof Key k && k.hash == hash && k.get() == get() && get() != null;
    }
  }

  /**
   * Returns the entries of {@code cache} where it keeps copies that are followed, else null (the
   * charge then held by the application's object); a cache seen first is asked, and subscribed.
   */
  Entries of(CacheSite site, Object cache) {
    Object e = caches.get(new Key(cache, null));
    if (e == null) {
      e = first(site, cache);
    }
    return e == BY_REFERENCE ? null : (Entries) e;
  }

  private Object first(CacheSite site, Object cache) {
    expunge();
    CopyKeeping keeping = KEEPING.get(cache.getClass());
    Object made = BY_REFERENCE;
    if (keeping != null) {
      try {
        if (keeping.keepsCopies(cache)) {
          Entries entries = new Entries(keeping, cache);
          keeping.watch(cache, entries);
          made = entries;
        }
      } catch (Throwable x) {
        Log.warnOnce(
            "copies-" + site.name() + "-" + cache.getClass().getName(),
            "site '"
                + site.name()
                + "': a "
                + cache.getClass().getName()
                + " keeps a copy of what it is handed, which cannot be followed ("
                + Text.clip(String.valueOf(x), 120)
                + "): its values' charges come back when the application's objects are collected");
      }
    }
    Object prior = caches.putIfAbsent(new Key(cache, collected), made);
    return prior != null ? prior : made; // (two first admissions at once: the first kept wins)
  }

  /**
   * Says that every entry of a collected cache left, and of a closed one (closed by its manager's
   * close, which no hook sees): the probe thread's housekeeping.
   */
  void sweep() {
    expunge();
    for (Map.Entry<Object, Object> e : caches.entrySet()) {
      if (e.getValue() instanceof Entries entries && entries.closed()) {
        entries.allLeft();
      }
    }
  }

  private void expunge() {
    for (Object k; (k = collected.poll()) != null; ) {
      Object e = caches.remove(k);
      if (e instanceof Entries entries) {
        entries.allLeft();
      }
    }
  }

  /** One cache's entries that hold a charge, by key: told of exits by the cache's library. */
  final class Entries implements CopyKeeping.Exits {
    private final CopyKeeping keeping;
    private final WeakReference<Object> cache;
    private final Map<Object, Token> byKey = new ConcurrentHashMap<>();

    Entries(CopyKeeping keeping, Object cache) {
      this.keeping = keeping;
      this.cache = new WeakReference<>(cache);
    }

    /**
     * Holds {@code token} (tracked already) by the entry of {@code key}, or of each key of a map's
     * ({@code putAll}); a value it replaces leaves.
     */
    void hold(Object key, Token token) {
      if (key instanceof Map<?, ?> m) {
        for (Object k : m.keySet()) {
          replace(k, token);
        }
      } else {
        replace(key, token);
      }
    }

    private void replace(Object key, Token token) {
      Token old = key == null ? null : byKey.put(key, token);
      if (old != null) {
        release(old);
      }
    }

    /** Heard from the cache's library, on its thread: never throws into the cache's call. */
    @Override
    public void left(Object key) {
      try {
        Token t = key == null ? null : byKey.remove(key);
        if (t != null) {
          release(t);
        }
      } catch (Throwable x) {
        Log.warnOnce(
            "copies-left",
            "an entry's exit from a cache that keeps copies failed ("
                + Text.clip(String.valueOf(x), 160)
                + "); the cache's call ran as written, its charge may stay held");
      }
    }

    @Override
    public void allLeft() {
      for (Object key : byKey.keySet()) {
        left(key);
      }
    }

    boolean closed() {
      Object c = cache.get();
      return c == null || keeping.closed(c);
    }

    private void release(Token t) {
      if (!t.leave()) {
        return; // other keys of its putAll still hold it
      }
      GateThread g = GateThread.current();
      boolean outer = !g.inGate;
      g.inGate = true;
      try {
        holdings.release(t, g);
      } finally {
        if (outer) {
          g.inGate = false;
        }
      }
    }
  }

  /** Returns the number of keys a charge admitted with {@code key} is held by. */
  static int keys(Object key) {
    return key instanceof Map<?, ?> m ? m.size() : 1;
  }
}
