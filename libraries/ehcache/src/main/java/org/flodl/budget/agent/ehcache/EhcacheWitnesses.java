package org.flodl.budget.agent.ehcache;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.OwnListener;
import org.flodl.budget.agent.library.Reflect;
import org.flodl.budget.agent.library.Witnesses;

/**
 * An Ehcache 3 cache's witnesses: its {@code CacheLoaderWriter} ({@code getCacheLoaderWriter()}),
 * which every write and remove reaches, and its cache event listeners, seen as the listeners of its
 * store's event source (the cache's event dispatcher subscribes there while it has any, those of
 * the configuration and those registered at run time alike), the agent's own ({@link OwnListener})
 * not counted. Ehcache has no remove that skips its loader-writer and no way to evict one entry, so
 * a cache with either is not declined: one whose heap tier is counted in entries has that bound
 * steered instead ({@link EhcacheBound}).
 */
final class EhcacheWitnesses implements Witnesses {
  private final ClassValue<Members> caches =
      new ClassValue<>() {
        @Override
        protected Members computeValue(Class<?> c) {
          return new Members(Reflect.method(c, "getCacheLoaderWriter"), Reflect.field(c, "store"));
        }
      };
  private final ClassValue<Method> eventSources = Reflect.methods("getStoreEventSource");
  private final ClassValue<Method> listeners = Reflect.methods("getListeners");

  private record Members(Method loaderWriter, Field store) {}

  @Override
  public String of(Object cache) throws ReflectiveOperationException {
    Members m = caches.get(cache.getClass());
    List<String> who = new ArrayList<>(2);
    Object lw = m.loaderWriter() == null ? null : m.loaderWriter().invoke(cache);
    if (lw != null) {
      who.add("a CacheLoaderWriter (" + Reflect.nameOf(lw) + ")");
    }
    Object store = Reflect.read(m.store(), cache);
    if (store == null) {
      throw new NoSuchFieldException(cache.getClass().getName() + " has no store");
    }
    Object source = call(eventSources, store);
    if (source != null && anyOfTheApplication((Collection<?>) call(listeners, source))) {
      who.add("cache event listeners");
    }
    return who.isEmpty() ? null : "an Ehcache cache with " + String.join(" and ", who);
  }

  /** Returns whether a store's listeners hold one that is not the agent's ({@link OwnListener}). */
  private static boolean anyOfTheApplication(Collection<?> listeners) {
    for (Object l : listeners) {
      if (!OwnListener.made(l)) {
        return true;
      }
    }
    return false;
  }

  private static Object call(ClassValue<Method> methods, Object o)
      throws ReflectiveOperationException {
    Method m = methods.get(o.getClass());
    if (m == null) {
      throw new NoSuchMethodException(o.getClass().getName() + " has none of the methods read");
    }
    return m.invoke(o);
  }

  @Override
  public Bound bound(Object cache) throws ReflectiveOperationException {
    Object store = Reflect.read(caches.get(cache.getClass()).store(), cache);
    return store == null ? null : EhcacheBound.of(cache, store);
  }
}
