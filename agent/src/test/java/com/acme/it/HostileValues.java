package com.acme.it;

import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Puts hostile and unusual values, one at a time, into a {@link SampleStore} (a cache-admit site
 * with the agent), and prints how long each put took: {@code PUT name ns=... cached=...}. Each
 * value is built before its put is timed and evicted after, so only one is alive at a time. With no
 * arguments every value is put; otherwise the named ones.
 */
public final class HostileValues {
  private HostileValues() {}

  /** A node of a linked ring. */
  static final class Node {
    Node next;
  }

  static Map<String, Supplier<Object>> values() {
    Map<String, Supplier<Object>> v = new java.util.LinkedHashMap<>();
    v.put(
        "endless",
        () ->
            new AbstractCollection<Object>() {
              @Override
              public Iterator<Object> iterator() {
                return new Iterator<>() {
                  @Override
                  public boolean hasNext() {
                    return true;
                  }

                  @Override
                  public Object next() {
                    return "x";
                  }
                };
              }

              @Override
              public int size() {
                return 3;
              }
            });
    v.put("ncopies-max", () -> Collections.nCopies(Integer.MAX_VALUE, "x"));
    v.put("ncopies-1e9-of-1MiB", () -> Collections.nCopies(1_000_000_000, new byte[1 << 20]));
    v.put(
        "abstract-list-1e9",
        () ->
            new AbstractList<Object>() {
              @Override
              public Object get(int index) {
                return new int[] {index};
              }

              @Override
              public int size() {
                return 1_000_000_000;
              }
            });
    v.put(
        "objects-10M",
        () -> {
          Object[] a = new Object[10_000_000];
          for (int i = 0; i < a.length; i++) {
            a[i] = new Object();
          }
          return a;
        });
    v.put("nulls-10M", () -> new Object[10_000_000]);
    v.put("list-of-nulls-10M", () -> new ArrayList<>(Collections.nCopies(10_000_000, null)));
    v.put("string-100MB", () -> "a".repeat(100 << 20));
    v.put(
        "ring-1M",
        () -> {
          Node head = new Node();
          Node n = head;
          for (int i = 0; i < 1_000_000; i++) {
            n.next = new Node();
            n = n.next;
          }
          n.next = head;
          return head;
        });
    v.put(
        "nested-lists-100k",
        () -> {
          List<Object> top = new ArrayList<>();
          List<Object> at = top;
          for (int i = 0; i < 100_000; i++) {
            List<Object> inner = new ArrayList<>();
            at.add(inner);
            at = inner;
          }
          return top;
        });
    v.put(
        "samples-10k",
        () -> {
          List<float[]> s = new ArrayList<>(10_000);
          for (int i = 0; i < 10_000; i++) {
            s.add(new float[256]);
          }
          return s;
        });
    return v;
  }

  public static void main(String[] args) throws Exception {
    SampleStore store = new SampleStore();
    store.put("warm-up", new byte[64]); // the agent's first decision pays its start: not timed
    store.evict("warm-up");
    Map<String, Supplier<Object>> values = values();
    List<String> names = args.length == 0 ? new ArrayList<>(values.keySet()) : List.of(args);
    for (String name : names) {
      Object value = values.get(name).get();
      long t0 = System.nanoTime();
      store.put(name, value);
      long ns = System.nanoTime() - t0;
      System.out.println("PUT " + name + " ns=" + ns + " cached=" + (store.get(name) != null));
      store.evict(name);
      value = null;
    }
    mutatedWhilePriced(store);
    System.out.println("DONE");
  }

  /** A map another thread keeps changing while it is put. */
  private static void mutatedWhilePriced(SampleStore store) throws InterruptedException {
    Map<Integer, int[]> map = new HashMap<>();
    for (int i = 0; i < 100_000; i++) {
      map.put(i, new int[1]);
    }
    Map<Integer, int[]> shared = Collections.synchronizedMap(map);
    Thread writer =
        new Thread(
            () -> {
              int i = 0;
              while (!Thread.currentThread().isInterrupted()) {
                shared.remove(i % 100_000);
                shared.put(i % 100_000, new int[1]);
                i++;
              }
            });
    writer.start();
    Thread.sleep(20);
    long t0 = System.nanoTime();
    store.put("mutated", map); // the cache sees the map itself, as a careless loader hands it over
    long ns = System.nanoTime() - t0;
    writer.interrupt();
    writer.join();
    System.out.println("PUT mutated ns=" + ns + " cached=" + (store.get("mutated") != null));
    store.evict("mutated");
  }
}
