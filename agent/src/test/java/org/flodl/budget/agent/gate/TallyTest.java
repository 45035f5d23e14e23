package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/**
 * The striped counters of a cache-admit site: nothing lost or counted twice across drains, and
 * never more cells than the CPUs allow, however many threads add.
 */
class TallyTest {
  @Test
  void drainsReturnWhatWasAddedSinceTheLastDrain() {
    Tally t = new Tally(3);
    add(t, 0, 1);
    add(t, 1, 10);
    add(t, 2, 100);
    assertArrayEquals(new long[] {1, 10, 100}, t.drain());
    assertArrayEquals(new long[] {0, 0, 0}, t.drain(), "a second drain finds nothing new");
    add(t, 2, 5);
    assertArrayEquals(new long[] {0, 0, 5}, t.drain());
  }

  /**
   * Eight threads add while the test drains over and over (the race: an add between a drain's read
   * of one cell and the next, or while the table grows): the drains add up to exactly what was
   * added.
   */
  @Test
  void eightThreadsAddingWhileDrainingLoseNothing() throws Exception {
    Tally t = new Tally(2);
    int threads = 8;
    int perThread = 200_000;
    CyclicBarrier start = new CyclicBarrier(threads + 1);
    List<Thread> workers = new ArrayList<>();
    Queue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    for (int i = 0; i < threads; i++) {
      Thread w =
          new Thread(
              () -> {
                try {
                  start.await();
                  for (int n = 0; n < perThread; n++) {
                    add(t, 0, 1);
                    add(t, 1, 3);
                  }
                } catch (Throwable e) {
                  failures.add(
                      new AssertionError(Thread.currentThread().getName() + " failed: " + e, e));
                }
              },
              "tally-worker-" + i);
      workers.add(w);
      w.start();
    }
    start.await();
    long[] sum = new long[2];
    while (workers.stream().anyMatch(Thread::isAlive)) {
      long[] d = t.drain();
      sum[0] += d[0];
      sum[1] += d[1];
    }
    for (Thread w : workers) {
      w.join();
    }
    WorkerFailures.rethrow(failures);
    long[] d = t.drain();
    sum[0] += d[0];
    sum[1] += d[1];
    assertEquals((long) threads * perThread, sum[0]);
    assertEquals(3L * threads * perThread, sum[1]);
    assertTrue(t.cells() <= Tally.MAX_CELLS, t.cells() + " cells");
    assertArrayEquals(new long[] {0, 0}, t.drain());
  }

  /**
   * Twenty thousand threads that add once each and end, half of them virtual where the JVM has
   * them: the counts are whole, each add saw a value of its own (the sampler's weights rest on it),
   * and the cells stay within their cap.
   */
  @Test
  void manyShortLivedThreadsLeaveNothingPerThreadAndLoseNothing() throws Exception {
    Tally t = new Tally(2);
    int n = 20_000;
    java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    Runnable add =
        () -> {
          GateThread g = GateThread.current();
          long[] cell = t.cell(g);
          long v = t.add(g, cell, 0, 1);
          Tally.addTo(cell, 1, 5);
          seen.add((long) System.identityHashCode(cell) << 32 | v);
        };
    java.util.concurrent.ExecutorService pool = VirtualThreads.perTaskOrPool();
    try {
      List<java.util.concurrent.Future<?>> done = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        if (i % 2 == 0) {
          done.add(pool.submit(add));
        } else {
          Thread w = new Thread(add, "tally-short-" + i);
          w.start();
          w.join();
        }
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertArrayEquals(new long[] {n, 5L * n}, t.total());
    assertEquals(n, seen.size(), "every add saw a count of its own in its cell");
    assertTrue(t.cells() <= Tally.MAX_CELLS, t.cells() + " cells");
    assertArrayEquals(new long[] {n, 5L * n}, t.drain());
    assertArrayEquals(new long[] {0, 0}, t.drain());
  }

  /** Adds {@code x} to counter {@code slot} of {@code t}, on the calling thread's cell. */
  private static void add(Tally t, int slot, long x) {
    GateThread g = GateThread.current();
    t.add(g, t.cell(g), slot, x);
  }
}
