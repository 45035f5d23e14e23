package org.flodl.budget.agent.guava;

import java.lang.reflect.Field;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Hops;
import org.flodl.budget.agent.library.Reflect;
import org.flodl.budget.agent.library.Witnesses;

/**
 * A Guava cache's witness: the removal listener its {@code CacheBuilder} stored in the {@code
 * LocalCache} that keeps the entries (reached from a manual or loading cache, its map view, or a
 * {@code ForwardingCache}'s delegate), unless the builder's null listener. Guava has no way to
 * evict one entry with an eviction cause, so a cache with one is not declined: a bounded one has
 * its segments' bound steered instead ({@link GuavaBound}).
 */
final class GuavaWitnesses implements Witnesses {
  private final Hops toLocal = new Hops("removalListener", "localCache", "delegate");
  private final ClassValue<Field> listener = Reflect.fields("removalListener");
  private final ClassValue<GuavaBound.Fields> bounds =
      new ClassValue<>() {
        @Override
        protected GuavaBound.Fields computeValue(Class<?> c) {
          return GuavaBound.Fields.of(c);
        }
      };

  @Override
  public String of(Object cache) throws ReflectiveOperationException {
    Object local = toLocal.follow(cache);
    Object l = Reflect.read(listener.get(local.getClass()), local);
    return l == null || l.getClass().getName().endsWith("$NullListener")
        ? null
        : "a Guava cache with a removal listener (" + Reflect.nameOf(l) + ")";
  }

  @Override
  public Bound bound(Object cache) throws ReflectiveOperationException {
    Object local = toLocal.follow(cache);
    return GuavaBound.of(local, bounds.get(local.getClass()));
  }
}
