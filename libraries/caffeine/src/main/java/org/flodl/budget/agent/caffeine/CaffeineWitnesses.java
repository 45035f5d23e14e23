package org.flodl.budget.agent.caffeine;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.library.Hops;
import org.flodl.budget.agent.library.Reflect;
import org.flodl.budget.agent.library.Witnesses;

/**
 * A Caffeine cache's witnesses, as its builder stored them in the cache that keeps the entries
 * (reached from a manual, loading or async cache and from their map views): a removal listener
 * ({@code removalListener()}), an eviction listener (3.x, field {@code evictionListener}), a {@code
 * CacheWriter} (2.x, field {@code writer}, unless the disabled one). Caffeine has no way to evict
 * one entry with an eviction cause, so a cache with any of them is not declined. Nor is its maximum
 * steered ({@link #bound} is none): Caffeine evicts and tells its removal listener on its executor,
 * and the values evicted but not yet told stay reachable meanwhile; under a steered maximum, a job
 * whose listener closes its samples still died of the heap in one run of three on a loaded machine,
 * where the same job under Caffeine's own bound did not.
 */
final class CaffeineWitnesses implements Witnesses {
  private final Hops toLocal = new Hops("removalListener", "cache", "asyncCache", "delegate");
  private final ClassValue<Members> members =
      new ClassValue<>() {
        @Override
        protected Members computeValue(Class<?> c) {
          return new Members(
              Reflect.method(c, "removalListener"),
              Reflect.field(c, "evictionListener"),
              Reflect.field(c, "writer"));
        }
      };

  private record Members(Method removalListener, Field evictionListener, Field writer) {}

  @Override
  public String of(Object cache) throws ReflectiveOperationException {
    Object local = toLocal.follow(cache);
    Members m = members.get(local.getClass());
    List<String> who = new ArrayList<>(3);
    Object removal = m.removalListener() == null ? null : m.removalListener().invoke(local);
    if (removal != null) {
      who.add("a removal listener (" + Reflect.nameOf(removal) + ")");
    }
    Object eviction = Reflect.read(m.evictionListener(), local);
    if (eviction != null) {
      who.add("an eviction listener (" + Reflect.nameOf(eviction) + ")");
    }
    Object writer = Reflect.read(m.writer(), local);
    if (writer != null && !writer.getClass().getSimpleName().startsWith("Disabled")) {
      who.add("a CacheWriter (" + Reflect.nameOf(writer) + ")");
    }
    return who.isEmpty() ? null : "a Caffeine cache with " + String.join(" and ", who);
  }
}
