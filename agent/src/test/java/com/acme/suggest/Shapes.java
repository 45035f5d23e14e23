package com.acme.suggest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The shapes {@code suggest} must tell apart (SuggestTest), one small class each; none is run. The
 * line numbers of this file are in the test's expected output: add below, not above.
 */
final class Shapes {
  private Shapes() {}
}

/** A map field filled in a getter, never emptied: a cache-admit site, unbounded. */
final class MapInGetter {
  private final Map<String, byte[]> cache = new HashMap<>();

  byte[] get(String key) {
    byte[] v = cache.get(key);
    if (v == null) {
      v = load(key);
      cache.put(key, v);
    }
    return v;
  }

  private byte[] load(String key) {
    return new byte[key.length()];
  }
}

/** computeIfAbsent with a lambda: the returned value is the sample; a removal releases it. */
final class ComputeWithLambda {
  private final Map<Integer, float[]> rows = new ConcurrentHashMap<>();

  float[] row(int i) {
    return rows.computeIfAbsent(i, k -> new float[k + 1]);
  }

  void drop(int i) {
    rows.remove(i);
  }
}

/** A list of samples appended to every epoch. */
final class EpochList {
  private final List<byte[]> seen = new ArrayList<>();

  void epoch(int n) {
    for (int i = 0; i < n; i++) {
      seen.add(read(i));
    }
  }

  private byte[] read(int i) {
    return new byte[i];
  }
}

/** A bounded queue sized from a constructor argument, taken from by next(). */
final class QueueFromArgument {
  private final BlockingQueue<Object> queue;

  QueueFromArgument(int depth) {
    this.queue = new ArrayBlockingQueue<>(depth);
  }

  Object next() throws InterruptedException {
    return queue.take();
  }
}

/** A LinkedBlockingQueue sized from a field. */
final class QueueFromField {
  private final int prefetch;
  private BlockingQueue<Object> queue;

  QueueFromField(int prefetch) {
    this.prefetch = prefetch;
  }

  void start() {
    queue = new LinkedBlockingQueue<>(prefetch);
  }

  Object poll() {
    return queue.poll();
  }
}

/** A queue sized from a constant: nothing decides it at run time, no candidate. */
final class QueueFromConstant {
  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(8);

  Object next() throws InterruptedException {
    return queue.take();
  }
}

/** A map that bounds itself (an LRU by count): no candidate. */
final class SelfBoundedLru {
  private final Map<Integer, byte[]> open =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, byte[]> eldest) {
          return size() > 4;
        }
      };

  byte[] get(int i) {
    byte[] v = open.get(i);
    if (v == null) {
      v = new byte[i];
      open.put(i, v);
    }
    return v;
  }
}

/** A registry filled once, in a static initializer: no cache, no candidate. */
final class RegistryFilledOnce {
  private static final Map<String, Runnable> HANDLERS = new HashMap<>();

  static {
    HANDLERS.put("a", () -> {});
    HANDLERS.put("b", () -> {});
  }

  static Runnable handler(String name) {
    return HANDLERS.get(name);
  }
}

/** An object's own parts, collected by its constructor: no cache, no candidate. */
final class PartsOfItself {
  private final List<byte[]> parts = new ArrayList<>();

  PartsOfItself(byte[] a, byte[] b) {
    parts.add(a);
    parts.add(b);
  }

  byte[] part(int i) {
    return parts.get(i);
  }
}
