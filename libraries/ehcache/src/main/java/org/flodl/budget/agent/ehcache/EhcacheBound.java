package org.flodl.budget.agent.ehcache;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicReference;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Reflect;

/**
 * An Ehcache 3 cache's heap tier bound, where it is counted in entries ({@code heap(n)}, {@code
 * heap(n, EntryUnit.ENTRIES)}): moved through Ehcache's own run-time configuration, {@code
 * getRuntimeConfiguration().updateResourcePools(heap(n))}, as an application may move it. Ehcache's
 * on-heap store takes the new capacity and evicts down to it at its next writes, by its own
 * eviction advisor, firing its own {@code EVICTED} events; its loader-writer, which every write
 * reached already, learns nothing of an eviction, as under its own bound. What the heap tier holds
 * is read from its store's map ({@code mappingCount()}), behind a loader-writer's store and a
 * tiered store's caching tier. A heap tier sized in bytes is not steered.
 */
final class EhcacheBound implements Bound {
  private final Object cache;
  private final Object runtime;
  private final Object heapType;
  private final Object entries;
  private final Object heapStore;
  private final ClassLoader loader;

  private EhcacheBound(
      Object cache, Object runtime, Object heapType, Object entries, Object heapStore) {
    this.cache = cache;
    this.runtime = runtime;
    this.heapType = heapType;
    this.entries = entries;
    this.heapStore = heapStore;
    this.loader = cache.getClass().getClassLoader();
  }

  /** Returns the bound of {@code cache}, or null where its heap tier is not counted in entries. */
  static Bound of(Object cache, Object store) throws ReflectiveOperationException {
    ClassLoader loader = cache.getClass().getClassLoader();
    Object runtime = call(cache, "getRuntimeConfiguration");
    @SuppressWarnings({"unchecked", "rawtypes"})
    Object heap =
        Enum.valueOf(
            (Class) Class.forName("org.ehcache.config.ResourceType$Core", false, loader), "HEAP");
    Object pool = pool(runtime, heap);
    if (pool == null) {
      return null;
    }
    Object unit = call(pool, "getUnit");
    if (!(unit instanceof Enum<?> e) || !e.name().equals("ENTRIES")) {
      return null;
    }
    Object heapStore = heapStore(store);
    return heapStore == null ? null : new EhcacheBound(cache, runtime, heap, unit, heapStore);
  }

  /**
   * Returns the on-heap store: {@code store} itself, or what it wraps (a loader-writer's store, its
   * {@code delegate}; a tiered store's caching tier), a few steps at most.
   */
  private static Object heapStore(Object store) throws ReflectiveOperationException {
    Object s = store;
    for (int i = 0; i < 4 && s != null; i++) {
      if (Reflect.field(s.getClass(), "map") != null) {
        return s;
      }
      Field tier = Reflect.field(s.getClass(), "cachingTierRef");
      Field delegate = Reflect.field(s.getClass(), "delegate");
      s =
          tier != null
              ? ((AtomicReference<?>) tier.get(s)).get()
              : delegate != null ? delegate.get(s) : null;
    }
    return null;
  }

  private static Object pool(Object runtime, Object type) throws ReflectiveOperationException {
    Object pools = call(runtime, "getResourcePools");
    Method get = method(pools.getClass(), "getPoolForResource");
    return get.invoke(pools, type);
  }

  @Override
  public Object cache() {
    return cache;
  }

  @Override
  public long maximum() throws ReflectiveOperationException {
    return (Long) call(pool(runtime, heapType), "getSize");
  }

  @Override
  public long size() throws ReflectiveOperationException {
    return entries();
  }

  @Override
  public long entries() throws ReflectiveOperationException {
    Object map = Reflect.field(heapStore.getClass(), "map").get(heapStore);
    return map == null ? 0 : (Long) call(map, "mappingCount");
  }

  @Override
  public long least() {
    return 1;
  }

  @Override
  public void set(long maximum) throws ReflectiveOperationException {
    Class<?> builders =
        Class.forName("org.ehcache.config.builders.ResourcePoolsBuilder", false, loader);
    Object builder = builders.getMethod("newResourcePoolsBuilder").invoke(null);
    Class<?> unit = Class.forName("org.ehcache.config.ResourceUnit", false, loader);
    builder = builders.getMethod("heap", long.class, unit).invoke(builder, maximum, entries);
    Object pools = builders.getMethod("build").invoke(builder);
    Method update = method(runtime.getClass(), "updateResourcePools");
    update.invoke(runtime, pools);
  }

  private static Object call(Object o, String name) throws ReflectiveOperationException {
    Method m = Reflect.method(o.getClass(), name);
    if (m == null) {
      throw new NoSuchMethodException(o.getClass().getName() + "#" + name);
    }
    return m.invoke(o);
  }

  /** Returns the public method named {@code name} of one parameter that {@code c} has. */
  private static Method method(Class<?> c, String name) throws NoSuchMethodException {
    for (Method m : c.getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == 1) {
        m.setAccessible(true); // public, on a class that may not be
        return m;
      }
    }
    throw new NoSuchMethodException(c.getName() + "#" + name);
  }
}
