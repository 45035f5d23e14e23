package com.acme.libs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.ehcache.Cache;
import org.ehcache.CacheManager;
import org.ehcache.config.builders.CacheConfigurationBuilder;
import org.ehcache.config.builders.CacheManagerBuilder;
import org.ehcache.config.builders.ResourcePoolsBuilder;
import org.ehcache.spi.loaderwriter.CacheLoaderWriter;

/**
 * A training job whose Ehcache 3 cache writes through to a system of record (a {@code
 * CacheLoaderWriter}), its heap tier bounded in entries ({@code --bound=}, a million: unbounded in
 * bytes): each sample of {@code --samples=} of {@code --bytes=}, over two epochs in a shuffled
 * order, is read from the cache and, on a miss, decoded and put, which writes it through. The
 * database keeps what a row was written as (its first byte and length), never the bytes. Prints
 * {@code HITS=} (epoch 2's), {@code PUTS=}, {@code WRITES=} (the writer's), {@code DELETES=},
 * {@code ROWS=}, {@code INTACT=} (every row as written last) and {@code DONE}.
 */
public final class WriteThroughTrain {
  static final Map<Integer, Long> DATABASE = new ConcurrentHashMap<>();
  static final AtomicInteger WRITES = new AtomicInteger();
  static final AtomicInteger DELETES = new AtomicInteger();

  private WriteThroughTrain() {}

  /** What the database keeps of a row: its first byte and its length. */
  static long record(byte[] v) {
    return ((long) v[0] << 32) | v.length;
  }

  public static void main(String[] args) {
    long bound = 1_000_000;
    int samples = 600;
    int bytes = 1 << 20;
    for (String a : args) {
      String v = a.substring(a.indexOf('=') + 1);
      switch (a.substring(2, a.indexOf('='))) {
        case "bound" -> bound = Long.parseLong(v);
        case "samples" -> samples = Integer.parseInt(v);
        case "bytes" -> bytes = Integer.parseInt(v);
        default -> throw new IllegalArgumentException(a);
      }
    }
    CacheLoaderWriter<Integer, byte[]> db =
        new CacheLoaderWriter<>() {
          @Override
          public byte[] load(Integer key) {
            return null; // the database keeps records, not samples: a miss decodes again
          }

          @Override
          public void write(Integer key, byte[] value) {
            WRITES.incrementAndGet();
            DATABASE.put(key, record(value));
          }

          @Override
          public void delete(Integer key) {
            DELETES.incrementAndGet();
            DATABASE.remove(key);
          }
        };
    int hits = 0;
    int puts = 0;
    try (CacheManager manager = CacheManagerBuilder.newCacheManagerBuilder().build(true)) {
      Cache<Integer, byte[]> cache =
          manager.createCache(
              "samples",
              CacheConfigurationBuilder.newCacheConfigurationBuilder(
                      Integer.class, byte[].class, ResourcePoolsBuilder.heap(bound))
                  .withLoaderWriter(db));
      java.util.List<Integer> order = new java.util.ArrayList<>();
      for (int k = 0; k < samples; k++) {
        order.add(k);
      }
      for (int e = 0; e < 2; e++) {
        hits = 0;
        java.util.Collections.shuffle(order, new java.util.Random(e)); // the same every run
        for (int k : order) {
          byte[] v = cache.get(k);
          if (v != null) {
            hits++;
          } else {
            v = new byte[bytes];
            v[0] = (byte) (k + e);
            cache.put(k, v);
            puts++;
          }
        }
      }
    }
    boolean intact = DATABASE.size() == samples;
    for (Map.Entry<Integer, Long> r : DATABASE.entrySet()) {
      intact &= (r.getValue() & 0xFFFFFFFFL) == bytes;
    }
    System.out.println("HITS=" + hits);
    System.out.println("PUTS=" + puts);
    System.out.println("WRITES=" + WRITES.get());
    System.out.println("DELETES=" + DELETES.get());
    System.out.println("ROWS=" + DATABASE.size());
    System.out.println("INTACT=" + intact);
    System.out.println("DONE");
  }
}
