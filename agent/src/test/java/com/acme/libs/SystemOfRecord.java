package com.acme.libs;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.common.cache.CacheBuilder;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.cache.Caching;
import javax.cache.configuration.FactoryBuilder;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.integration.CacheWriter;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.spi.loaderwriter.CacheLoaderWriter;

/**
 * A cache in front of a system of record, as applications write one: a map stands for the database,
 * and the cache reaches it the library's way. {@code --lib=}:
 *
 * <ul>
 *   <li>{@code jcache}: JCache write-through ({@code setWriteThrough(true)} with a {@code
 *       CacheWriter}), the provider on the class path, store by reference;
 *   <li>{@code ehcache}: Ehcache 3's own API with a {@code CacheLoaderWriter};
 *   <li>{@code caffeine}: write-behind, {@code maximumSize(5)} and an eviction listener that
 *       persists what is evicted, what is left persisted at shutdown;
 *   <li>{@code guava}: the same with a removal listener that persists what {@code wasEvicted()}.
 * </ul>
 *
 * <p>The database holds an older row 0 before the run; the run puts {@code --values} rows (keys 0
 * to n-1) of {@code --bytes} each. Prints {@code ROWS=} (rows in the database), {@code WRITES=},
 * {@code DELETES=}, {@code INTACT=} (every row holds the value put last under its key) and {@code
 * DONE}.
 */
public final class SystemOfRecord {
  static final Map<Integer, byte[]> DATABASE = new ConcurrentHashMap<>();
  static final AtomicInteger WRITES = new AtomicInteger();
  static final AtomicInteger DELETES = new AtomicInteger();

  private SystemOfRecord() {}

  public static void main(String[] args) throws Exception {
    String lib = "jcache";
    int values = 10;
    int bytes = 1 << 20;
    for (String a : args) {
      String v = a.substring(a.indexOf('=') + 1);
      if (a.startsWith("--lib=")) {
        lib = v;
      } else if (a.startsWith("--values=")) {
        values = Integer.parseInt(v);
      } else if (a.startsWith("--bytes=")) {
        bytes = Integer.parseInt(v);
      } else {
        throw new IllegalArgumentException(a);
      }
    }
    DATABASE.put(0, new byte[] {-1}); // the row stored before the run
    switch (lib) {
      // each library's code in a class of its own: only its jars are on the class path
      case "jcache" -> JCacheRows.run(values, bytes);
      case "ehcache" -> EhcacheRows.run(values, bytes);
      case "caffeine" -> CaffeineRows.run(values, bytes);
      case "guava" -> GuavaRows.run(values, bytes);
      default -> throw new IllegalArgumentException(lib);
    }
    boolean intact = true;
    for (int k = 0; k < values; k++) {
      intact &= Arrays.equals(row(k, bytes), DATABASE.get(k));
    }
    System.out.println("ROWS=" + DATABASE.size());
    System.out.println("WRITES=" + WRITES.get());
    System.out.println("DELETES=" + DELETES.get());
    System.out.println("INTACT=" + intact);
    System.out.println("DONE");
  }

  /** The row put under key {@code k}: the same bytes every run. */
  static byte[] row(int k, int bytes) {
    byte[] b = new byte[bytes];
    Arrays.fill(b, 0, Math.min(bytes, 64), (byte) (k + 1));
    return b;
  }

  static void write(Object k, Object v) {
    WRITES.incrementAndGet();
    DATABASE.put((Integer) k, (byte[]) v);
  }

  static void delete(Object k) {
    DELETES.incrementAndGet();
    DATABASE.remove((Integer) k);
  }

  private static final class JCacheRows {
    static void run(int values, int bytes) {
      javax.cache.CacheManager manager = Caching.getCachingProvider().getCacheManager();
      javax.cache.Cache<Integer, byte[]> cache =
          manager.createCache(
              "rows",
              new MutableConfiguration<Integer, byte[]>()
                  .setTypes(Integer.class, byte[].class)
                  .setStoreByValue(false)
                  .setWriteThrough(true)
                  .setCacheWriterFactory(FactoryBuilder.factoryOf(JCacheWriter.class)));
      for (int k = 0; k < values; k++) {
        cache.put(k, row(k, bytes));
      }
      manager.close();
    }
  }

  /** The database's writer, as JCache's write-through calls it. */
  public static final class JCacheWriter implements CacheWriter<Integer, byte[]> {
    @Override
    public void write(javax.cache.Cache.Entry<? extends Integer, ? extends byte[]> e) {
      SystemOfRecord.write(e.getKey(), e.getValue());
    }

    @Override
    public void writeAll(
        java.util.Collection<javax.cache.Cache.Entry<? extends Integer, ? extends byte[]>> es) {
      for (var it = es.iterator(); it.hasNext(); ) {
        write(it.next());
        it.remove();
      }
    }

    @Override
    public void delete(Object key) {
      SystemOfRecord.delete(key);
    }

    @Override
    public void deleteAll(java.util.Collection<?> keys) {
      for (var it = keys.iterator(); it.hasNext(); ) {
        delete(it.next());
        it.remove();
      }
    }
  }

  private static final class EhcacheRows {
    static void run(int values, int bytes) {
      CacheLoaderWriter<Integer, byte[]> db =
          new CacheLoaderWriter<>() {
            @Override
            public byte[] load(Integer key) {
              return DATABASE.get(key);
            }

            @Override
            public void write(Integer key, byte[] value) {
              SystemOfRecord.write(key, value);
            }

            @Override
            public void delete(Integer key) {
              SystemOfRecord.delete(key);
            }
          };
      try (CacheManager manager = CacheManagerBuilder.newCacheManagerBuilder().build(true)) {
        org.ehcache.Cache<Integer, byte[]> cache =
            manager.createCache(
                "rows",
                CacheConfigurationBuilder.newCacheConfigurationBuilder(
                        Integer.class, byte[].class, ResourcePoolsBuilder.heap(1_000))
                    .withLoaderWriter(db));
        for (int k = 0; k < values; k++) {
          cache.put(k, row(k, bytes));
        }
      }
    }
  }

  private static final class CaffeineRows {
    static void run(int values, int bytes) {
      com.github.benmanes.caffeine.cache.Cache<Integer, byte[]> cache =
          Caffeine.newBuilder()
              .maximumSize(5)
              .executor(Runnable::run)
              .<Integer, byte[]>evictionListener((k, v, cause) -> write(k, v))
              .build();
      for (int k = 0; k < values; k++) {
        cache.put(k, row(k, bytes));
      }
      cache.cleanUp();
      cache.asMap().forEach(SystemOfRecord::write); // what is left, persisted at shutdown
    }
  }

  private static final class GuavaRows {
    static void run(int values, int bytes) {
      com.google.common.cache.Cache<Integer, byte[]> cache =
          CacheBuilder.newBuilder()
              .maximumSize(5)
              .<Integer, byte[]>removalListener(
                  n -> {
                    if (n.wasEvicted()) {
                      write(n.getKey(), n.getValue());
                    }
                  })
              .build();
      for (int k = 0; k < values; k++) {
        cache.put(k, row(k, bytes));
      }
      cache.cleanUp();
      cache.asMap().forEach(SystemOfRecord::write); // what is left, persisted at shutdown
    }
  }
}
