package org.flodl.budget.agent.library;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;

/**
 * The way from a library's cache object (a manual cache, a loading cache, an async cache's view, a
 * map view) to the object that keeps its configuration: the object itself where it has the {@code
 * marker} (a method without parameters or a field), else a method or a field of the names given,
 * followed until it has. Found once per class.
 */
public final class Hops {
  private static final int MOST = 4;
  private final String marker;
  private final String[] names;
  private final ClassValue<Member> steps =
      new ClassValue<>() {
        @Override
        protected Member computeValue(Class<?> c) {
          return step(c);
        }
      };

  /**
   * Returns the way to objects that have {@code marker}, through the methods (without parameters)
   * or fields named {@code names}, tried in their order.
   */
  public Hops(String marker, String... names) {
    this.marker = marker;
    this.names = names.clone();
  }

  /**
   * Returns the object {@code o} leads to that has the marker.
   *
   * @throws ReflectiveOperationException where no such object is found from {@code o}
   */
  public Object follow(Object o) throws ReflectiveOperationException {
    Object at = o;
    for (int i = 0; i < MOST && at != null; i++) {
      Member step = steps.get(at.getClass());
      if (step == null) {
        return at;
      }
      at = step instanceof Method m ? m.invoke(at) : ((Field) step).get(at);
    }
    throw new NoSuchMethodException(
        marker + " not found from a " + o.getClass().getName() + " in " + MOST + " steps");
  }

  /** Returns null where {@code c} has the marker, else its first step of the names. */
  private Member step(Class<?> c) {
    if (Reflect.method(c, marker) != null || Reflect.field(c, marker) != null) {
      return null;
    }
    for (String n : names) {
      Method m = Reflect.method(c, n);
      if (m != null) {
        return m;
      }
      Field f = Reflect.field(c, n);
      if (f != null) {
        return f;
      }
    }
    throw new IllegalStateException(
        c.getName() + " has neither " + marker + " nor " + String.join(", ", names));
  }
}
