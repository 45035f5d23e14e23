package com.acme.weave;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/**
 * The shapes the weaver meets, compiled by javac as users' code is: library-style interfaces and
 * their implementations, bodies in supertypes, bridges, nesting, loaders with call sites in loops,
 * try blocks, lambdas and constructors, wide operands on the stack.
 */
public final class Fixtures {
  private Fixtures() {}

  /** A cache interface, as Caffeine's or Guava's. */
  public interface Store {
    void put(Object key, Object value);

    Object get(Object key, Function<Object, Object> loader);

    void invalidate(Object key);
  }

  /** An implementation that declares every body. */
  public static class MapStore implements Store {
    final Map<Object, Object> map = new HashMap<>();

    @Override
    public void put(Object key, Object value) {
      map.put(key, value);
    }

    @Override
    public Object get(Object key, Function<Object, Object> loader) {
      return map.computeIfAbsent(key, loader);
    }

    @Override
    public void invalidate(Object key) {
      map.remove(key);
    }
  }

  /** An override that calls its super's body: both are woven, only the outer one decides. */
  public static class CountingStore extends MapStore {
    int puts;

    @Override
    public void put(Object key, Object value) {
      puts++;
      if ("boom".equals(key)) {
        throw new IllegalStateException("boom");
      }
      super.put(key, value);
    }
  }

  /** A base class with a body, not itself a Store (Ehcache's EhcacheBase beside Ehcache). */
  public static class Base {
    final Map<Object, Object> map = new HashMap<>();

    public void put(Object key, Object value) {
      map.put(key, value);
    }
  }

  /** The named type inherits put from Base. */
  public static class Special extends Base {}

  /** A generic interface: an implementation's put(String, byte[]) comes with a bridge. */
  public interface TypedStore<K, V> {
    void put(K key, V value);
  }

  /** javac adds the bridge put(Object, Object) that calls put(String, byte[]). */
  public static class BytesStore implements TypedStore<String, byte[]> {
    final Map<String, byte[]> map = new HashMap<>();

    @Override
    public void put(String key, byte[] value) {
      map.put(key, value);
    }
  }

  /** A DJL-shaped iterable: (dataset, executor, prefetch). */
  public static class Iterable {
    final ExecutorService executor;
    final int prefetch;

    public Iterable(Object dataset, ExecutorService executor, int prefetch) {
      this.executor = executor;
      this.prefetch = prefetch;
    }
  }

  /**
   * Shapes for body points: a static method with wide parameters, a value typed narrower than
   * Object, a loop (frames of its own), long, double and void returns.
   */
  public static final class Shapes {
    int sink;

    public static long stat(long a, byte[] value, double d) {
      return a + value.length + (long) d;
    }

    public ByteBuffer buffer(int i, ByteBuffer b) {
      return b.position() == i ? b : null;
    }

    public void loop(Object v, int n) {
      int s = 0;
      while (s < n) {
        s++;
      }
      sink = s + (v == null ? 0 : 1);
    }

    public Object evict(long k, Object v, int j) {
      return k == j ? v : null;
    }

    public double scaled(int depth, double x) {
      return depth * x;
    }

    public int depth() {
      return sink;
    }

    public String batch(String prefix, int n) {
      for (int i = 0; i < n; i++) {
        prefix = prefix + i;
      }
      return prefix;
    }
  }

  /** A cache whose puts answer: the previous value, whether it stored. */
  public static class AnsweringStore {
    final Map<Object, Object> map = new HashMap<>();

    public Object put(Object key, Object value) {
      return map.put(key, value);
    }

    public boolean putIfAbsent(Object key, Object value) {
      return map.putIfAbsent(key, value) == null;
    }

    public long putCounted(Object key, Object value) {
      map.put(key, value);
      return map.size();
    }
  }

  /** Overloads: a site without a parameter list is ambiguous here. */
  public static final class Overloads {
    public Object put(Object key, Object value) {
      return value;
    }

    public Object put(Object key, Object value, long ttl) {
      return value;
    }
  }

  /** A hand-written loader: a map field filled in get(int), calls in every shape. */
  public static class Dataset {
    final Map<Integer, byte[]> cache = new HashMap<>();
    final Map<Integer, byte[]> side = new HashMap<>();
    long total;
    double weight;

    byte[] decode(int i) {
      byte[] b = new byte[4];
      b[0] = (byte) i;
      return b;
    }

    /** The plain shape: put the decoded value into the field's map. */
    public byte[] get(int i) {
      byte[] v = decode(i);
      cache.put(i, v);
      return v;
    }

    /** The call inside a loop and a try block, with a long and a double under it on the stack. */
    public long many(int n) {
      long sum = 0;
      for (int i = 0; i < n; i++) {
        try {
          double w = weight + (cache.put(i, decode(i)) == null ? 1.0 : 2.0);
          sum += (long) w + total;
        } catch (RuntimeException e) {
          sum--;
        }
      }
      return sum;
    }

    /** The call inside a lambda body (javac's lambda$lambda$0). */
    public byte[] lazily(int i) {
      return side.computeIfAbsent(
          i,
          k -> {
            byte[] v = decode(k);
            cache.put(k, v);
            return v;
          });
    }

    /** A static caller. */
    public static Object store(Map<Object, Object> m, Object k, Object v) {
      return m.put(k, v);
    }

    /** The release: remove returns the value it let go. */
    public byte[] drop(int i) {
      return cache.remove(i);
    }

    /** A loading call: the store's get(key, loader) returns the value the cache retains. */
    public Object load(Store store, Object key) {
      return store.get(key, k -> "loaded-" + k);
    }
  }

  /** A prefetching loader: its queue sized from a constructor argument, before and after super. */
  public static class PrefetchLoader {
    final BlockingQueue<Object> queue;
    final BlockingQueue<Object> fair;

    public PrefetchLoader(int depth) {
      this(new ArrayBlockingQueue<>(depth), depth);
    }

    PrefetchLoader(BlockingQueue<Object> queue, int depth) {
      this.queue = queue;
      this.fair = new ArrayBlockingQueue<>(depth, true);
    }

    public Object next() throws InterruptedException {
      queue.put("batch");
      return queue.take();
    }

    List<Integer> capacities() {
      return List.of(queue.remainingCapacity(), fair.remainingCapacity());
    }
  }

  /** A constructor that calls a cache before super(): frames with an uninitialized this. */
  public static class Early {
    final Object stored;

    public Early(Map<Object, Object> m, Object v) {
      this(m.put("k", v), 0);
    }

    Early(Object previous, int unused) {
      this.stored = previous;
    }
  }
}
