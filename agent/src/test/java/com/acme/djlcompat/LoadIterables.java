package com.acme.djlcompat;

import java.io.File;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Loads DJL's {@code DataIterable} and {@code BulkDataIterable} from each jar set given, each in
 * its own class loader (initialised, so a woven class is verified), and constructs each with no
 * engine: the manager and sampler are proxies of DJL's own interfaces from that loader (the sampler
 * yields batches of 8 indices forever), the executor a proxy that only counts submissions, the
 * requested prefetch 8. Prints per class {@code CONSTRUCTED label class executor=present|null
 * queued=N prefetch=N} from the object's own fields, so a test sees what the constructor received.
 * Arguments: {@code LABEL=path[,path...]} per loader.
 */
public final class LoadIterables {
  static final int REQUESTED = 8;

  private LoadIterables() {}

  public static void main(String[] args) throws Exception {
    for (String arg : args) {
      int eq = arg.indexOf('=');
      String label = arg.substring(0, eq);
      List<URL> urls = new ArrayList<>();
      for (String p : arg.substring(eq + 1).split(",")) {
        urls.add(new File(p).toURI().toURL());
      }
      URLClassLoader loader =
          new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
      for (String name :
          new String[] {
            "ai.djl.training.dataset.DataIterable", "ai.djl.training.dataset.BulkDataIterable"
          }) {
        Class<?> c = Class.forName(name, true, loader);
        System.out.println("LOADED " + label + " " + name);
        construct(label, c, loader);
      }
    }
    System.out.println("DONE");
  }

  private static void construct(String label, Class<?> c, ClassLoader loader) throws Exception {
    Constructor<?> ctor = c.getConstructors()[0];
    Class<?>[] types = ctor.getParameterTypes();
    Object[] values = new Object[types.length];
    AtomicInteger submitted = new AtomicInteger();
    for (int i = 0; i < types.length; i++) {
      values[i] = value(types[i], submitted);
    }
    Object o = ctor.newInstance(values);
    Object executor = field(o, "executor");
    Object queue = field(o, "queue");
    Object prefetch = field(o, "prefetch");
    System.out.println(
        "CONSTRUCTED "
            + label
            + " "
            + c.getName()
            + " executor="
            + (executor == null ? "null" : "present")
            + " queued="
            + (queue instanceof Collection ? ((Collection<?>) queue).size() : "null")
            + " submitted="
            + submitted.get()
            + (prefetch != null ? " prefetch=" + prefetch : ""));
  }

  private static Object value(Class<?> type, AtomicInteger submitted) {
    if (type == int.class) {
      return REQUESTED;
    }
    if (type == ExecutorService.class) {
      return Proxy.newProxyInstance(
          LoadIterables.class.getClassLoader(),
          new Class<?>[] {ExecutorService.class},
          (p, m, a) -> {
            if (m.getName().equals("submit")) {
              submitted.incrementAndGet();
              return new CompletableFuture<>();
            }
            return defaultValue(m.getReturnType(), p, m.getName());
          });
    }
    if (type.isInterface() && type.getName().startsWith("ai.djl.")) {
      return Proxy.newProxyInstance(
          type.getClassLoader(),
          new Class<?>[] {type},
          (p, m, a) -> {
            switch (m.getName()) {
              case "newSubManager":
                return p;
              case "getBatchSize":
                return REQUESTED;
              case "sample":
                return infinite();
              default:
                return defaultValue(m.getReturnType(), p, m.getName());
            }
          });
    }
    return null;
  }

  private static Iterator<List<Long>> infinite() {
    return new Iterator<>() {
      long next;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public List<Long> next() {
        List<Long> batch = new ArrayList<>();
        for (int i = 0; i < REQUESTED; i++) {
          batch.add(next++);
        }
        return batch;
      }
    };
  }

  private static Object defaultValue(Class<?> type, Object proxy, String name) {
    if (name.equals("hashCode")) {
      return System.identityHashCode(proxy);
    }
    if (name.equals("toString")) {
      return "proxy";
    }
    if (type == boolean.class) {
      return false;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    return null;
  }

  private static Object field(Object o, String name) throws IllegalAccessException {
    for (Class<?> k = o.getClass(); k != null; k = k.getSuperclass()) {
      for (Field f : k.getDeclaredFields()) {
        if (f.getName().equals(name)) {
          f.setAccessible(true);
          return f.get(o);
        }
      }
    }
    return null;
  }
}
