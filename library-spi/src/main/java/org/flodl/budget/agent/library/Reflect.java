package org.flodl.budget.agent.library;

import java.lang.reflect.Field;
import java.lang.reflect.Method;

/**
 * Reads a library's own state by name where its API does not show it (a cache's listeners as its
 * builder stored them): a field or a method without parameters, declared anywhere in a class's
 * supertypes, made accessible. Callers find each once per class and keep it.
 */
public final class Reflect {
  private Reflect() {}

  /**
   * Returns the field named {@code name} that {@code c} or a superclass declares, accessible, or
   * null where there is none.
   *
   * @throws RuntimeException where the field's module does not open it to the agent
   */
  public static Field field(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (f.getName().equals(name)) {
          f.setAccessible(true);
          return f;
        }
      }
    }
    return null;
  }

  /**
   * Returns the method named {@code name} without parameters that {@code c} declares or inherits
   * (from a superclass or an interface), accessible, or null where there is none.
   *
   * @throws RuntimeException where the method's module does not open it to the agent
   */
  public static Method method(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      Method m = declared(k, name);
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  private static Method declared(Class<?> c, String name) {
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == 0 && !m.isBridge()) {
        m.setAccessible(true);
        return m;
      }
    }
    for (Class<?> i : c.getInterfaces()) {
      Method m = declared(i, name);
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  /** Returns the {@link #field} named {@code name} of each class, found once per class. */
  public static ClassValue<Field> fields(String name) {
    return new ClassValue<>() {
      @Override
      protected Field computeValue(Class<?> c) {
        return field(c, name);
      }
    };
  }

  /** Returns the {@link #method} named {@code name} of each class, found once per class. */
  public static ClassValue<Method> methods(String name) {
    return new ClassValue<>() {
      @Override
      protected Method computeValue(Class<?> c) {
        return method(c, name);
      }
    };
  }

  /**
   * Returns the name of {@code o}'s class as a line can show it: a lambda's (a hidden class, named
   * {@code Outer$$Lambda$92/0x...}) as {@code a lambda of Outer}.
   */
  public static String nameOf(Object o) {
    Class<?> c = o.getClass();
    String n = c.getName();
    int lambda = n.indexOf("$$Lambda");
    return c.isHidden() && lambda > 0 ? "a lambda of " + n.substring(0, lambda) : n;
  }

  /** Returns what field {@code f} holds in {@code o}, or null where {@code f} is null. */
  public static Object read(Field f, Object o) throws IllegalAccessException {
    return f == null ? null : f.get(o);
  }
}
