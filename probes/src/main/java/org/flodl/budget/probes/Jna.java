package org.flodl.budget.probes;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * JNA reached through reflection, from whichever class loader holds it (the application's, or an
 * isolated one from {@link JnaLoaders}), so that {@code policy} compiles and runs without JNA and
 * never links its own classes against one particular copy of it. Only the few calls the GPU probes
 * make: look a library up, call a function returning {@code int} or {@code const char*}, and read
 * scratch memory.
 */
final class Jna {
  private final Method getInstance;
  private final Method getFunction;
  private final Method invokeInt;
  private final Method invokeString;
  private final Constructor<?> memory;
  private final Method getLong;
  private final Method getInt;
  private final Method getPointer;
  private final String version;

  private Jna(ClassLoader loader) throws ReflectiveOperationException {
    Class<?> nativeClass = Class.forName("com.sun.jna.Native", true, loader);
    Class<?> library = Class.forName("com.sun.jna.NativeLibrary", true, loader);
    Class<?> function = Class.forName("com.sun.jna.Function", true, loader);
    Class<?> pointer = Class.forName("com.sun.jna.Pointer", true, loader);
    Class<?> mem = Class.forName("com.sun.jna.Memory", true, loader);
    java.lang.reflect.Field v = nativeClass.getField("VERSION"); // declared in a package-private
    v.setAccessible(true); // interface; JNA's unnamed module is open to us
    this.version = String.valueOf(v.get(null));
    this.getInstance = library.getMethod("getInstance", String.class);
    this.getFunction = library.getMethod("getFunction", String.class);
    this.invokeInt = function.getMethod("invokeInt", Object[].class);
    this.invokeString = function.getMethod("invokeString", Object[].class, boolean.class);
    this.memory = mem.getConstructor(long.class);
    this.getLong = pointer.getMethod("getLong", long.class);
    this.getInt = pointer.getMethod("getInt", long.class);
    this.getPointer = pointer.getMethod("getPointer", long.class);
  }

  /**
   * Returns JNA from {@code loader}, its native part loaded.
   *
   * @throws IllegalStateException with a one-line reason when JNA is absent or will not load
   */
  static Jna load(ClassLoader loader) {
    if (loader == null) {
      throw new IllegalStateException("no JNA on the class path (the agent ships one)");
    }
    try {
      return new Jna(loader);
    } catch (ClassNotFoundException | NoClassDefFoundError e) {
      throw new IllegalStateException("no JNA on the class path (the agent ships one)");
    } catch (Throwable t) {
      throw new IllegalStateException("JNA did not load: " + oneLine(unwrap(t)));
    }
  }

  /** Returns JNA's version ({@code com.sun.jna.Native.VERSION}). */
  String version() {
    return version;
  }

  /**
   * Returns the first of {@code names} that loads, as a JNA {@code NativeLibrary}.
   *
   * @throws IllegalStateException naming the libraries when none loads
   */
  Object library(String... names) {
    Throwable last = null;
    for (String name : names) {
      try {
        return getInstance.invoke(null, name);
      } catch (Throwable t) {
        last = unwrap(t);
      }
    }
    throw new IllegalStateException(
        String.join(", ", names)
            + " not found"
            + (last instanceof UnsatisfiedLinkError ? "" : " (" + oneLine(last) + ")"));
  }

  /** Returns the function {@code name} of {@code library}; throws when it has none. */
  Object function(Object library, String name) {
    return call(getFunction, library, name);
  }

  int invokeInt(Object function, Object... args) {
    return (Integer) call(invokeInt, function, (Object) args);
  }

  String invokeString(Object function, Object... args) {
    return (String) call(invokeString, function, args, false);
  }

  /** Returns {@code bytes} of native scratch memory (freed when collected). */
  Object memory(long bytes) {
    try {
      return memory.newInstance(bytes);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(oneLine(unwrap(e)));
    }
  }

  long getLong(Object pointer, long offset) {
    return (Long) call(getLong, pointer, offset);
  }

  int getInt(Object pointer, long offset) {
    return (Integer) call(getInt, pointer, offset);
  }

  Object getPointer(Object pointer, long offset) {
    return call(getPointer, pointer, offset);
  }

  private static Object call(Method m, Object target, Object... args) {
    try {
      return m.invoke(target, args);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(m.getName() + ": " + oneLine(unwrap(e)));
    }
  }

  static Throwable unwrap(Throwable t) {
    Throwable e = t;
    while ((e instanceof InvocationTargetException || e instanceof ExceptionInInitializerError)
        && e.getCause() != null) {
      e = e.getCause();
    }
    return e;
  }

  /** Returns a throwable as one short line (JNA's link errors list every path they tried). */
  static String oneLine(Throwable t) {
    if (t == null) {
      return "unknown error";
    }
    String msg =
        t.getMessage() == null
            ? t.getClass().getSimpleName()
            : t.getClass().getSimpleName() + ": " + t.getMessage();
    msg = msg.replace('\n', ' ');
    return msg.length() > 200 ? msg.substring(0, 200) + "..." : msg;
  }
}
