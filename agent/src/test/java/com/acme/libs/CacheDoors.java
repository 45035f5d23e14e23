package com.acme.libs;

import com.acme.it.CacheApp;
import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.AsyncLoadingCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.google.common.cache.CacheBuilder;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;
import javax.cache.processor.EntryProcessor;

/**
 * A training loop whose sample cache is filled through one door of a library's cache, as real code
 * reaches them (an unbounded cache, so 600 samples of 1 MiB over two epochs end in OutOfMemoryError
 * at -Xmx256m). {@code --door=}:
 *
 * <ul>
 *   <li>{@code caffeine-get}, {@code guava-get}: the cache's own {@code get(key, loader)};
 *   <li>{@code caffeine-compute}, {@code guava-compute}: {@code asMap().computeIfAbsent};
 *   <li>{@code caffeine-map-put}, {@code guava-map-put}: {@code asMap().get}, then {@code
 *       asMap().put} on a miss;
 *   <li>{@code caffeine-async}: {@code buildAsync(loader)}, {@code get(key).get()};
 *   <li>{@code caffeine-async-put}: {@code buildAsync()}, {@code getIfPresent(key)}, then {@code
 *       put(key, future)} of a complete future on a miss; {@code caffeine-async-put-pending}: the
 *       same with a future completed only after the {@code put};
 *   <li>{@code jcache-invoke}: JCache's {@code invoke(key, processor)} whose processor loads a
 *       missing sample and calls {@code entry.setValue} (the provider on the class path, store by
 *       reference).
 * </ul>
 *
 * <p>{@code --samples}, {@code --bytes}, {@code --epochs}; {@code --clear} removes every key
 * through the door's own remove at the end; {@code --wait-for-agent-at=N}: at sample N of the first
 * epoch print {@code PAUSED N} and wait for the agent's MBean (an attach). Prints {@code LOADS=}
 * (samples decoded: each a value the door stores), {@code DELIVERED=}, {@code CHECKSUM=}, {@code
 * HITS=} (of the last epoch) and {@code DONE}.
 */
public final class CacheDoors {
  private static final AtomicLong LOADS = new AtomicLong();

  private CacheDoors() {}

  /** One door: the sample of a key, through the cache; and the removal of a key. */
  interface Door {
    byte[] get(int key) throws Exception;

    void remove(int key);
  }

  public static void main(String[] args) throws Exception {
    String door = "caffeine-compute";
    int samples = 600;
    int bytes = 1 << 20;
    int epochs = 2;
    boolean clear = false;
    int waitForAgentAt = -1;
    for (String a : args) {
      String v = a.substring(a.indexOf('=') + 1);
      if (a.startsWith("--door=")) {
        door = v;
      } else if (a.startsWith("--samples=")) {
        samples = Integer.parseInt(v);
      } else if (a.startsWith("--bytes=")) {
        bytes = Integer.parseInt(v);
      } else if (a.startsWith("--epochs=")) {
        epochs = Integer.parseInt(v);
      } else if (a.equals("--clear")) {
        clear = true;
      } else if (a.startsWith("--wait-for-agent-at=")) {
        waitForAgentAt = Integer.parseInt(v);
      } else {
        throw new IllegalArgumentException(a);
      }
    }
    int size = bytes;
    // each library's code in a class of its own: only its jars are on the class path
    Door d =
        switch (door) {
          case "caffeine-get",
              "caffeine-compute",
              "caffeine-map-put",
              "caffeine-async",
              "caffeine-async-put",
              "caffeine-async-put-pending" ->
              CaffeineDoors.of(door, size);
          case "guava-get", "guava-compute", "guava-map-put", "guava-get-all" ->
              GuavaDoors.of(door, size);
          case "jcache-invoke" -> JCacheDoors.invoke(size);
          default -> throw new IllegalArgumentException(door);
        };
    long checksum = 0;
    long delivered = 0;
    long hits = 0;
    for (int e = 0; e < epochs; e++) {
      long loadsBefore = LOADS.get();
      for (int i = 0; i < samples; i++) {
        if (e == 0 && i == waitForAgentAt) {
          System.out.println("PAUSED " + i);
          System.out.println(CacheApp.awaitAgent() ? "AGENT IS HERE" : "NO AGENT CAME");
        }
        int k = (int) ((i * 7919L + e * 31L) % samples);
        byte[] v = d.get(k);
        checksum = checksum * 31 + LibraryTrain.train(k, v);
        delivered++;
      }
      hits = samples - (LOADS.get() - loadsBefore);
    }
    if (clear) {
      for (int k = 0; k < samples; k++) {
        d.remove(k);
      }
    }
    System.out.println("LOADS=" + LOADS.get());
    System.out.println("DELIVERED=" + delivered);
    System.out.println("CHECKSUM=" + checksum);
    System.out.println("HITS=" + hits);
    System.out.println("DONE");
  }

  static byte[] load(int k, int size) {
    LOADS.incrementAndGet();
    return LibraryTrain.decode(k, size);
  }

  private static final class CaffeineDoors {
    static Door of(String door, int size) {
      if (door.equals("caffeine-async")) {
        AsyncLoadingCache<Integer, byte[]> async =
            Caffeine.newBuilder().buildAsync(k -> load(k, size));
        return new Door() {
          @Override
          public byte[] get(int key) throws Exception {
            return async.get(key).get();
          }

          @Override
          public void remove(int key) {
            async.asMap().remove(key);
          }
        };
      }
      if (door.startsWith("caffeine-async-put")) {
        AsyncCache<Integer, byte[]> async = Caffeine.newBuilder().buildAsync();
        boolean pending = door.endsWith("-pending");
        return new Door() {
          @Override
          public byte[] get(int key) throws Exception {
            CompletableFuture<byte[]> present = async.getIfPresent(key);
            if (present != null) {
              return present.get();
            }
            if (pending) {
              CompletableFuture<byte[]> f = new CompletableFuture<>();
              async.put(key, f);
              f.complete(load(key, size));
              return f.get();
            }
            byte[] v = load(key, size);
            async.put(key, CompletableFuture.completedFuture(v));
            return v;
          }

          @Override
          public void remove(int key) {
            async.asMap().remove(key);
          }
        };
      }
      com.github.benmanes.caffeine.cache.Cache<Integer, byte[]> cache =
          Caffeine.newBuilder().build();
      return mapDoor(door, cache.asMap(), size, k -> cache.get(k, key -> load(key, size)));
    }
  }

  private static final class GuavaDoors {
    static Door of(String door, int size) {
      if (door.equals("guava-get-all")) {
        // a loader without a bulk loadAll: getAll loads key by key
        com.google.common.cache.LoadingCache<Integer, byte[]> loading =
            CacheBuilder.newBuilder()
                .build(com.google.common.cache.CacheLoader.from(k -> load(k, size)));
        return mapDoor(door, loading.asMap(), size, k -> loading.getAll(List.of(k)).get(k));
      }
      com.google.common.cache.Cache<Integer, byte[]> cache = CacheBuilder.newBuilder().build();
      return mapDoor(door, cache.asMap(), size, k -> cache.get(k, () -> load(k, size)));
    }
  }

  /** A loader through the cache's own call. */
  interface Loading {
    byte[] get(int key) throws Exception;
  }

  static Door mapDoor(String door, ConcurrentMap<Integer, byte[]> map, int size, Loading own) {
    return new Door() {
      @Override
      public byte[] get(int key) throws Exception {
        if (door.endsWith("-get") || door.endsWith("-get-all")) {
          return own.get(key);
        }
        if (door.endsWith("-compute")) {
          return map.computeIfAbsent(key, k -> load(k, size));
        }
        byte[] v = map.get(key);
        if (v == null) {
          v = load(key, size);
          map.put(key, v);
        }
        return v;
      }

      @Override
      public void remove(int key) {
        map.remove(key);
      }
    };
  }

  private static final class JCacheDoors {
    static Door invoke(int size) {
      javax.cache.Cache<Integer, byte[]> cache =
          Caching.getCachingProvider()
              .getCacheManager()
              .createCache(
                  "samples",
                  new MutableConfiguration<Integer, byte[]>()
                      .setTypes(Integer.class, byte[].class)
                      .setStoreByValue(false));
      EntryProcessor<Integer, byte[], byte[]> loading =
          (entry, arguments) -> {
            if (!entry.exists()) {
              entry.setValue(load(entry.getKey(), size));
            }
            return entry.getValue();
          };
      return new Door() {
        @Override
        public byte[] get(int key) {
          return cache.invoke(key, loading);
        }

        @Override
        public void remove(int key) {
          cache.invoke(
              key,
              (entry, arguments) -> {
                entry.remove();
                return null;
              });
        }
      };
    }
  }
}
