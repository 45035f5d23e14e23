package org.flodl.budget.agent.gate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import org.flodl.budget.agent.config.MethodRef;

/**
 * A site's {@code decline} call: the method that evicts a key, called on the receiver of the call
 * that was declined ({@code cache.invalidate(key)}), through reflection from inside the gate (so
 * the woven code it reaches passes through). The method is found once per receiver class, by the
 * declared type's name among that class's supertypes. What it returns (a {@code remove(key)}
 * returns the older value) is released by the caller.
 */
final class Decline {
  private final MethodRef method;
  private final ClassValue<Method> methods =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> c) {
          return find(c);
        }
      };

  Decline(MethodRef method) {
    this.method = method;
  }

  /** Returns the method as the site names it. */
  MethodRef method() {
    return method;
  }

  /**
   * Calls the decline method on {@code receiver} with {@code args}; returns what it returned.
   *
   * @throws IllegalStateException when the receiver has no such method
   * @throws Throwable what the method threw
   */
  Object call(Object receiver, Object[] args) throws Throwable {
    Method m = methods.get(receiver.getClass());
    if (m == null) {
      throw new IllegalStateException(receiver.getClass().getName() + " has no method " + method);
    }
    try {
      return m.invoke(receiver, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private Method find(Class<?> c) {
    Class<?> type = typeNamed(c, method.className());
    if (type == null) {
      return null;
    }
    for (Method m : type.getMethods()) {
      if (matches(m)) {
        return accessible(m);
      }
    }
    for (Class<?> k = type; k != null; k = k.getSuperclass()) {
      for (Method m : k.getDeclaredMethods()) {
        if (matches(m)) {
          return accessible(m);
        }
      }
    }
    return null;
  }

  private boolean matches(Method m) {
    if (!m.getName().equals(method.methodName())) {
      return false;
    }
    List<String> wanted = method.parameterTypes();
    if (wanted == null) {
      return true;
    }
    Class<?>[] p = m.getParameterTypes();
    if (p.length != wanted.size()) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      String w = wanted.get(i);
      if (!p[i].getTypeName().equals(w)
          && !p[i].getName().equals(w)
          && !p[i].getSimpleName().equals(w)) {
        return false;
      }
    }
    return true;
  }

  private static Method accessible(Method m) {
    try {
      m.setAccessible(true);
    } catch (RuntimeException e) {
      // a public method of a public type needs nothing more; a closed module refuses: try as is
    }
    return m;
  }

  private static Class<?> typeNamed(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(name)) {
        return k;
      }
      Class<?> i = interfaceNamed(k.getInterfaces(), name);
      if (i != null) {
        return i;
      }
    }
    return null;
  }

  private static Class<?> interfaceNamed(Class<?>[] interfaces, String name) {
    for (Class<?> i : interfaces) {
      if (i.getName().equals(name)) {
        return i;
      }
      Class<?> deeper = interfaceNamed(i.getInterfaces(), name);
      if (deeper != null) {
        return deeper;
      }
    }
    return null;
  }
}
