package org.flodl.budget.agent.library;

/** The lookups a library's pricer finds its types by, by name, so the agent needs none of them. */
public final class Types {
  private Types() {}

  /** Returns the class or interface named {@code name} that {@code c} is or extends, or null. */
  public static Class<?> supertypeNamed(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(name)) {
        return k;
      }
      Class<?> found = interfaceNamed(k, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static Class<?> interfaceNamed(Class<?> c, String name) {
    for (Class<?> i : c.getInterfaces()) {
      if (i.getName().equals(name)) {
        return i;
      }
      Class<?> found = interfaceNamed(i, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }
}
