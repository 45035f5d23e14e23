package org.flodl.budget.agent.jcache;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.WeakHashMap;
import org.flodl.budget.agent.library.CopyKeeping;
import org.flodl.budget.agent.library.OwnListener;
import org.flodl.budget.agent.library.Reflect;
import org.flodl.budget.agent.library.Types;

/**
 * JCache's store-by-value caches ({@code isStoreByValue()}, the specification's default): the cache
 * keeps a copy, so the charge is held by the entry, and the unit hears each entry leave where the
 * application does not see it, the provider's own way:
 *
 * <ul>
 *   <li>Caffeine's provider ({@code CacheProxy}): its event dispatcher's {@code publishRemoved} and
 *       {@code publishExpired} (and their quiet forms), through which every removal, eviction by
 *       size and expiry of the cache passes whether or not a listener is registered, are hooked
 *       ({@code JCacheSupport}'s hooks): heard on the thread that removes, nothing registered,
 *       nothing dispatched;
 *   <li>Ehcache's ({@code Eh107Cache}): a listener on the store under its Ehcache cache (removed,
 *       expired and evicted), which the store fires on the thread whose call made the event; not in
 *       the JCache configuration nor among the Ehcache cache's listeners.
 * </ul>
 *
 * <p>So an entry's exit is known before the call that made it returns. JCache tells no listener of
 * {@code clear()} or {@code close()}: the unit's hooks at their entry say every entry left, and a
 * cache closed another way (a manager's close) is found closed ({@link #closed}). Another
 * provider's caches are not followed: their charge is held by the application's object, as for a
 * cache that stores by reference.
 */
final class JCacheCopies implements CopyKeeping {
  private static final String CAFFEINE = "com.github.benmanes.caffeine.jcache.CacheProxy";
  private static final String EHCACHE = "org.ehcache.jsr107.Eh107Cache";

  /** The exits subscribed per cache, for the clear and close hooks (weakly: the cache's own). */
  private final Map<Object, Exits> watched = Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public boolean keepsCopies(Object cache) throws ReflectiveOperationException {
    JCacheApi api = JCacheApi.of(cache);
    return Boolean.TRUE.equals(api.isStoreByValue().invoke(api.configuration(cache)));
  }

  @Override
  public void watch(Object cache, Exits exits) throws ReflectiveOperationException {
    Class<?> c = cache.getClass();
    if (Types.supertypeNamed(c, CAFFEINE) != null) {
      // heard at its event dispatcher's publish methods (the hooks), on the thread that removes
    } else if (Types.supertypeNamed(c, EHCACHE) != null) {
      subscribeEhcache(cache, exits);
    } else {
      throw new NoSuchMethodException(
          "no way to follow the entries of a " + c.getName() + " out of the application's sight");
    }
    watched.put(cache, exits);
  }

  @Override
  public boolean closed(Object cache) {
    try {
      return Boolean.TRUE.equals(JCacheApi.of(cache).isClosed().invoke(cache));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return false;
    }
  }

  /** Says that the entry of {@code key} left {@code cache}, where it is followed. */
  void left(Object cache, Object key) {
    Exits exits = cache == null ? null : watched.get(cache);
    if (exits != null) {
      exits.left(key);
    }
  }

  /** Says that every entry of {@code cache} left, where it is followed. */
  void allLeft(Object cache) {
    Exits exits = watched.get(cache);
    if (exits != null) {
      exits.allLeft();
    }
  }

  /**
   * Adds a listener to the store under a JCache cache of Ehcache's: the store fires it on the
   * thread whose call made the event, as the call ends (the leaving ones taken: removed, expired,
   * evicted). Not a cache event listener of the Ehcache cache, which Ehcache dispatches through its
   * executor, a synchronous one too, whose pool thread outlived the application's main thread by
   * its 30 s keep-alive.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void subscribeEhcache(Object cache, Exits exits)
      throws ReflectiveOperationException {
    Object ehcache = field(cache, "ehCache");
    Object store = field(ehcache, "store");
    ClassLoader l = store.getClass().getClassLoader();
    Class<?> storeType = Class.forName("org.ehcache.core.spi.store.Store", false, l);
    Class<?> sourceType =
        Class.forName("org.ehcache.core.spi.store.events.StoreEventSource", false, l);
    Class<?> listenerType =
        Class.forName("org.ehcache.core.spi.store.events.StoreEventListener", false, l);
    Class<?> eventType = Class.forName("org.ehcache.core.spi.store.events.StoreEvent", false, l);
    Method type = eventType.getMethod("getType");
    Method key = eventType.getMethod("getKey");
    Class<? extends Enum> types =
        (Class<? extends Enum>) Class.forName("org.ehcache.event.EventType", false, l);
    EnumSet leaving = EnumSet.noneOf(types);
    for (String t : new String[] {"REMOVED", "EXPIRED", "EVICTED"}) {
      leaving.add(Enum.valueOf(types, t));
    }
    Object listener =
        Proxy.newProxyInstance(
            l,
            new Class<?>[] {listenerType},
            (OwnListener)
                (proxy, m, args) -> {
                  if (m.getName().equals("onEvent")) {
                    if (leaving.contains(type.invoke(args[0]))) {
                      exits.left(key.invoke(args[0]));
                    }
                    return null;
                  }
                  return objectMethod(proxy, m, args);
                });
    Object source = storeType.getMethod("getStoreEventSource").invoke(store);
    sourceType.getMethod("addEventListener", listenerType).invoke(source, listener);
  }

  /** Returns the value of {@code o}'s field {@code name}, which its class or a superclass has. */
  private static Object field(Object o, String name) throws ReflectiveOperationException {
    java.lang.reflect.Field f = Reflect.field(o.getClass(), name);
    if (f == null) {
      throw new NoSuchFieldException(o.getClass().getName() + "." + name);
    }
    return f.get(o);
  }

  /** Answers {@code equals}, {@code hashCode} and {@code toString} of a listener proxy. */
  private static Object objectMethod(Object proxy, Method m, Object[] args) {
    switch (m.getName()) {
      case "equals":
        return proxy == args[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "flodl-budget's follower of a cache's copies";
      default:
        return null;
    }
  }
}
