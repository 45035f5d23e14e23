package com.acme.libs;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.integration.CacheWriter;
import javax.cache.integration.CacheWriterException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * Puts that throw, on a real JCache cache (the provider on the class path, storing by reference,
 * writing through): {@code --puts=N} samples of 64 KiB, every third refused by the cache's writer
 * ({@code CacheWriterException}) and every fifth with a null key ({@code NullPointerException}).
 * The app keeps every sample it made, so nothing it put can be collected: only the cache's own
 * answers move the books. After each put it prints what the agent's MBeans show at once: {@code PUT
 * i OK|THREW exception HELD=bytes ADMISSIONS=n RELEASES=n} (the heap tier's held bytes, site {@code
 * jcache}'s counts), and at the end {@code STORED=n BYTES=n}: the entries the cache holds and their
 * bytes.
 */
public final class ThrowingPuts {
  private static final int SAMPLE = 64 << 10;

  private ThrowingPuts() {}

  /** Refuses the writes of keys divisible by 3. */
  public static final class Refusing implements CacheWriter<Integer, byte[]> {
    @Override
    public void write(Cache.Entry<? extends Integer, ? extends byte[]> entry) {
      if (entry.getKey() % 3 == 0) {
        throw new CacheWriterException("the store refuses key " + entry.getKey());
      }
    }

    @Override
    public void writeAll(
        java.util.Collection<Cache.Entry<? extends Integer, ? extends byte[]>> es) {
      for (Cache.Entry<? extends Integer, ? extends byte[]> e : es) {
        write(e);
      }
    }

    @Override
    public void delete(Object key) {}

    @Override
    public void deleteAll(java.util.Collection<?> keys) {}
  }

  public static void main(String[] args) throws Exception {
    int puts = 30;
    for (String a : args) {
      if (a.startsWith("--puts=")) {
        puts = Integer.parseInt(a.substring("--puts=".length()));
      }
    }
    CacheManager manager = Caching.getCachingProvider().getCacheManager();
    Cache<Integer, byte[]> cache =
        manager.createCache(
            "samples",
            new MutableConfiguration<Integer, byte[]>()
                .setTypes(Integer.class, byte[].class)
                .setStoreByValue(false)
                .setWriteThrough(true)
                .setCacheWriterFactory(FactoryBuilder.factoryOf(Refusing.class)));
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    ObjectName tier = new ObjectName("org.flodl.budget:type=Tier,name=heap");
    ObjectName site = new ObjectName("org.flodl.budget:type=Site,name=jcache");
    long until = System.nanoTime() + 60_000_000_000L;
    while (!server.isRegistered(tier) && System.nanoTime() < until) {
      Thread.sleep(10); // the agent registers its MBeans once its probes first read
    }
    List<byte[]> made = new ArrayList<>();
    for (int i = 1; i <= puts; i++) {
      byte[] sample = new byte[SAMPLE];
      sample[0] = (byte) i;
      made.add(sample);
      String outcome = "OK";
      try {
        cache.put(i % 5 == 0 ? null : i, sample);
      } catch (RuntimeException e) {
        outcome = "THREW " + e.getClass().getSimpleName();
      }
      while (!server.isRegistered(site) && System.nanoTime() < until) {
        Thread.sleep(10); // a site's MBean comes with its first decision
      }
      System.out.println(
          "PUT "
              + i
              + " "
              + outcome
              + " HELD="
              + server.getAttribute(tier, "HeldBytes")
              + " ADMISSIONS="
              + server.getAttribute(site, "Admissions")
              + " RELEASES="
              + server.getAttribute(site, "Releases"));
    }
    long stored = 0;
    long bytes = 0;
    for (Cache.Entry<Integer, byte[]> e : cache) {
      stored++;
      bytes += e.getValue().length;
    }
    System.out.println("STORED=" + stored + " BYTES=" + bytes + " MADE=" + made.size());
    System.out.println(made.get(made.size() - 1)[0] == (byte) puts ? "DONE" : "WRONG");
  }
}
