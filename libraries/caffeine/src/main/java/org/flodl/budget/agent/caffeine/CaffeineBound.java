package org.flodl.budget.agent.caffeine;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.concurrent.locks.Lock;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Reflect;

/**
 * A bounded Caffeine 3.x cache's maximum (entries, or its weigher's weights), set under the cache's
 * eviction lock; then the cache's maintenance is scheduled as a write schedules it, on the cache's
 * own executor, where Caffeine evicts with cause {@code SIZE}, tells its eviction listener there
 * and its removal listener on its executor. Only the maximum moves: the shares of its admission
 * window and main space keep the sizes the cache was built with and its policy's tuning is not
 * restarted ({@code Policy.Eviction.setMaximum} restarts it at each move, and Caffeine then rejects
 * entries just written: measured, up to five of 1,200 samples closed while the job held them).
 * Under a steered bound Caffeine so evicts its least recently used entries, never the entry just
 * written while another remains. Caffeine 2.x evicts entries just written at a moved maximum (126
 * of 1,200 measured), so its caches are not steered. Reached from the {@code BoundedLocalCache}
 * that keeps the entries.
 */
final class CaffeineBound implements Bound {
  /** The members of a bounded cache's class, found once per class; null: not a bounded cache. */
  record Members(
      Method evicts,
      Method maximum,
      Method weightedSize,
      Method estimatedSize,
      Method setMaximum,
      Method scheduleAfterWrite,
      Field evictionLock) {

    static Members of(Class<?> c) {
      Method setMaximum = declared(c, "setMaximum", long.class);
      Method evicts = Reflect.method(c, "evicts");
      Method scheduleAfterWrite = Reflect.method(c, "scheduleAfterWrite");
      if (Reflect.field(c, "evictionListener") == null // 2.x: see above
          || setMaximum == null
          || scheduleAfterWrite == null
          || evicts == null) {
        return null;
      }
      return new Members(
          evicts,
          Reflect.method(c, "maximum"),
          Reflect.method(c, "weightedSize"),
          Reflect.method(c, "estimatedSize"),
          setMaximum,
          scheduleAfterWrite,
          Reflect.field(c, "evictionLock"));
    }

    private static Method declared(Class<?> c, String name, Class<?> parameter) {
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        try {
          Method m = k.getDeclaredMethod(name, parameter);
          m.setAccessible(true);
          return m;
        } catch (NoSuchMethodException e) {
          // declared higher up
        }
      }
      return null;
    }
  }

  private final Object local;
  private final Members m;

  CaffeineBound(Object local, Members m) {
    this.local = local;
    this.m = m;
  }

  /** Returns the bound of {@code local}, or null where it does not evict by size. */
  static Bound of(Object local, Members m) throws ReflectiveOperationException {
    if (m == null || m.maximum() == null || !(Boolean) m.evicts().invoke(local)) {
      return null;
    }
    return new CaffeineBound(local, m);
  }

  @Override
  public Object cache() {
    return local;
  }

  @Override
  public long maximum() throws ReflectiveOperationException {
    return (Long) m.maximum().invoke(local);
  }

  @Override
  public long size() throws ReflectiveOperationException {
    return (Long) m.weightedSize().invoke(local);
  }

  @Override
  public long entries() throws ReflectiveOperationException {
    return (Long) m.estimatedSize().invoke(local);
  }

  @Override
  public long least() {
    return 1;
  }

  @Override
  public void set(long maximum) throws ReflectiveOperationException {
    Lock lock = (Lock) m.evictionLock().get(local);
    lock.lock(); // as a write of the application takes it when the cache's buffers are full
    try {
      m.setMaximum().invoke(local, maximum);
    } finally {
      lock.unlock();
    }
    m.scheduleAfterWrite().invoke(local); // the cache's maintenance evicts, on its executor
  }
}
