package com.acme.libs;

import java.lang.management.ManagementFactory;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.BinaryOperator;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * What the calls of a library's own cache API answer when the budget declines them: {@code
 * --lib=caffeine|guava|ehcache [--agent]}. Started under {@code mode=observe} (its first puts
 * stored), with {@code --agent} it turns the agent to {@code enforce} through its MBean (the budget
 * declines every value from then); then it makes each call, printing {@code CHECK name result}: a
 * put over a stored key and the key read back; a null key; a null value; a {@code putAll} with a
 * null key and one with a null value (Caffeine and Guava); a {@code putAll} over a stored key;
 * {@code putIfAbsent} over a stored and an absent key (Ehcache). A result is the value's tag,
 * {@code null}, {@code true}/{@code false} or {@code threw:Exception}.
 */
public final class DeclineAnswers {
  private DeclineAnswers() {}

  /** The calls the presets budget, on one library's cache of String to String. */
  interface Api {
    void put(String k, String v);

    String get(String k);

    void putAll(Map<String, String> m);

    String putIfAbsent(String k, String v);
  }

  public static void main(String[] args) throws Exception {
    String lib = args[0].substring("--lib=".length());
    Api c =
        switch (lib) {
          case "caffeine" -> Caffeines.make();
          case "guava" -> Guavas.make();
          case "ehcache" -> Ehcaches.make();
          default -> throw new IllegalArgumentException(lib);
        };
    c.put("a", "a1");
    c.put("m", "m1");
    c.put("p", "p1");
    if (args.length > 1 && args[1].equals("--agent")) {
      enforce();
    }
    check("put-over-stored", () -> run(() -> c.put("a", "a2")));
    check("get-after-declined-put", () -> c.get("a"));
    check("put-null-key", () -> run(() -> c.put(null, "x")));
    check("put-null-value", () -> run(() -> c.put("n", null)));
    if (!lib.equals("ehcache")) {
      Map<String, String> nullKey = new HashMap<>();
      nullKey.put("b", "b1");
      nullKey.put(null, "x");
      check("putAll-null-key", () -> run(() -> c.putAll(nullKey)));
      Map<String, String> nullValue = new HashMap<>();
      nullValue.put("b", "b1");
      nullValue.put("c", null);
      check("putAll-null-value", () -> run(() -> c.putAll(nullValue)));
      check("putAll-over-stored", () -> run(() -> c.putAll(Map.of("m", "m2", "q", "q1"))));
      check("get-after-declined-putAll", () -> c.get("m"));
    } else {
      check("putIfAbsent-stored", () -> c.putIfAbsent("p", "p2"));
      check("get-after-putIfAbsent-stored", () -> c.get("p"));
      check("putIfAbsent-absent", () -> c.putIfAbsent("r", "r1"));
      check("get-after-putIfAbsent-absent", () -> c.get("r"));
    }
    System.out.println("DONE");
  }

  private static String run(Runnable r) {
    r.run();
    return "returned";
  }

  private static void check(String name, Callable<Object> call) {
    String result;
    try {
      result = String.valueOf(call.call());
    } catch (Exception e) {
      result = "threw:" + e.getClass().getSimpleName();
    }
    System.out.println("CHECK " + name + " " + result);
  }

  /** Turns the agent from observe to enforce (its budget then declines every value). */
  private static void enforce() throws Exception {
    MBeanServer s = ManagementFactory.getPlatformMBeanServer();
    ObjectName agent = new ObjectName("org.flodl.budget:type=Agent");
    long until = System.nanoTime() + 60_000_000_000L;
    while (!s.isRegistered(agent) && System.nanoTime() < until) {
      Thread.sleep(10);
    }
    s.setAttribute(agent, new javax.management.Attribute("Mode", "enforce"));
  }

  /** An {@link Api} of the library's own calls. */
  private static Api of(
      BiConsumer<String, String> put,
      UnaryOperator<String> get,
      Consumer<Map<String, String>> putAll,
      BinaryOperator<String> putIfAbsent) {
    return new Api() {
      @Override
      public void put(String k, String v) {
        put.accept(k, v);
      }

      @Override
      public String get(String k) {
        return get.apply(k);
      }

      @Override
      public void putAll(Map<String, String> m) {
        putAll.accept(m);
      }

      @Override
      public String putIfAbsent(String k, String v) {
        return putIfAbsent.apply(k, v);
      }
    };
  }

  private static String unsupported(String k, String v) {
    throw new UnsupportedOperationException("putIfAbsent");
  }

  /** Loaded only when asked for: the other libraries need not be on the class path. */
  private static final class Caffeines {
    static Api make() {
      com.github.benmanes.caffeine.cache.Cache<String, String> c =
          com.github.benmanes.caffeine.cache.Caffeine.newBuilder().build();
      return of(c::put, c::getIfPresent, c::putAll, DeclineAnswers::unsupported);
    }
  }

  /** Loaded only when asked for. */
  private static final class Guavas {
    static Api make() {
      com.google.common.cache.Cache<String, String> c =
          com.google.common.cache.CacheBuilder.newBuilder().build();
      return of(c::put, c::getIfPresent, c::putAll, DeclineAnswers::unsupported);
    }
  }

  /** Loaded only when asked for. */
  private static final class Ehcaches {
    static Api make() {
      org.ehcache.CacheManager manager =
          org.ehcache.config.builders.CacheManagerBuilder.newCacheManagerBuilder()
              .withCache(
                  "answers",
                  org.ehcache.config.builders.CacheConfigurationBuilder
                      .newCacheConfigurationBuilder(
                          String.class,
                          String.class,
                          org.ehcache.config.builders.ResourcePoolsBuilder.heap(1000)))
              .build(true);
      org.ehcache.Cache<String, String> c = manager.getCache("answers", String.class, String.class);
      return of(c::put, c::get, c::putAll, c::putIfAbsent);
    }
  }
}
