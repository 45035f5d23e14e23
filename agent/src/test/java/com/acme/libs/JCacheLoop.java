package com.acme.libs;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.expiry.CreatedExpiryPolicy;
import javax.cache.expiry.Duration;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * A training loop whose sample cache is a JCache cache made as the specification's examples make
 * one ({@code new MutableConfiguration<Integer, byte[]>().setTypes(...)}: store by value, no
 * expiry, no bound), the provider the one on the class path. {@code --by-reference} sets {@code
 * setStoreByValue(false)}; {@code --expiry} a {@code CreatedExpiryPolicy} of a second; {@code
 * --end=} what the run does with the cache after its epochs: {@code clear}, {@code removeAll},
 * {@code close}, {@code destroy} (the manager's {@code destroyCache}), {@code close-manager}, or
 * {@code expire} (waits out the expiry and reads every key, which finds each entry expired). {@code
 * --samples}, {@code --bytes}, {@code --epochs}. Prints {@code DELIVERED=}, {@code CHECKSUM=},
 * {@code HITS=} (of the last epoch) and, where the agent runs, the site's held bytes read from its
 * MBean after the loop ({@code HELD_LOOP=}) and after the end ({@code HELD_END=}, once they stop
 * falling, or after 10 s), {@code THREADS=} the names of the threads besides its own that would
 * keep the JVM alive after {@code main} returns (not daemons), then {@code DONE}.
 */
public final class JCacheLoop {
  private JCacheLoop() {}

  public static void main(String[] args) throws Exception {
    boolean byValue = true;
    boolean expiry = false;
    String end = "none";
    int samples = 600;
    int bytes = 1 << 20;
    int epochs = 2;
    for (String a : args) {
      String v = a.substring(a.indexOf('=') + 1);
      if (a.equals("--by-reference")) {
        byValue = false;
      } else if (a.equals("--expiry")) {
        expiry = true;
      } else if (a.startsWith("--end=")) {
        end = v;
      } else if (a.startsWith("--samples=")) {
        samples = Integer.parseInt(v);
      } else if (a.startsWith("--bytes=")) {
        bytes = Integer.parseInt(v);
      } else if (a.startsWith("--epochs=")) {
        epochs = Integer.parseInt(v);
      } else {
        throw new IllegalArgumentException(a);
      }
    }
    CacheManager manager = Caching.getCachingProvider().getCacheManager();
    MutableConfiguration<Integer, byte[]> config =
        new MutableConfiguration<Integer, byte[]>().setTypes(Integer.class, byte[].class);
    if (!byValue) {
      config.setStoreByValue(false);
    }
    if (expiry) {
      config.setExpiryPolicyFactory(
          FactoryBuilder.factoryOf(new CreatedExpiryPolicy(new Duration(TimeUnit.SECONDS, 1))));
    }
    Cache<Integer, byte[]> cache = manager.createCache("samples", config);
    long checksum = 0;
    long delivered = 0;
    long hits = 0;
    long puts = 0;
    for (int e = 0; e < epochs; e++) {
      hits = 0;
      for (int i = 0; i < samples; i++) {
        int k = (int) ((i * 7919L + e * 31L) % samples);
        byte[] v = cache.get(k);
        if (v == null) {
          v = LibraryTrain.decode(k, bytes);
          cache.put(k, v);
          puts++;
        } else {
          hits++;
        }
        checksum = checksum * 31 + LibraryTrain.train(k, v);
        delivered++;
      }
    }
    long loop = held();
    switch (end) {
      case "clear" -> cache.clear();
      case "removeAll" -> cache.removeAll();
      case "close" -> cache.close();
      case "destroy" -> manager.destroyCache("samples");
      case "close-manager" -> manager.close();
      case "expire" -> {
        Thread.sleep(1500);
        Set<Integer> keys = new HashSet<>();
        for (int k = 0; k < samples; k++) {
          keys.add(k);
          cache.get(k); // finds it expired: the provider lets it go
        }
      }
      case "none" -> {}
      default -> throw new IllegalArgumentException(end);
    }
    long after = settled(loop);
    System.out.println("DELIVERED=" + delivered);
    System.out.println("CHECKSUM=" + checksum);
    System.out.println("HITS=" + hits);
    System.out.println("PUTS=" + puts);
    if (loop >= 0) { // the agent's site held nothing before the loop: it had decided nothing
      System.out.println("HELD_LOOP=" + loop + " HELD_END=" + after);
    }
    System.out.println("THREADS=" + lingering());
    System.out.println("DONE");
  }

  /** Returns the sorted names of the live threads, but this one, that are not daemons. */
  private static String lingering() {
    List<String> names = new ArrayList<>();
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t != Thread.currentThread() && t.isAlive() && !t.isDaemon()) {
        names.add(t.getName());
      }
    }
    Collections.sort(names);
    return String.join(",", names);
  }

  /**
   * Returns the site's held bytes once they stop falling (at most 10 s: a closed cache is swept).
   */
  private static long settled(long from) throws Exception {
    long last = held();
    for (int i = 0; i < 100 && last != 0; i++) {
      Thread.sleep(100);
      long now = held();
      if (now == last && i >= 20) {
        break;
      }
      last = now;
    }
    return last;
  }

  /** Returns the jcache site's held bytes from the agent's MBean, or -1 without the agent. */
  static long held() throws Exception {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName site = new ObjectName("org.flodl.budget:type=Site,name=jcache");
    if (!server.isRegistered(site)) {
      return -1;
    }
    return ((Number) server.getAttribute(site, "HeldBytes")).longValue();
  }
}
