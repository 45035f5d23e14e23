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
          t.addTo(cell, 1, 5);
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

  /**
   * A count and its bytes in one packed word a cell carries into wide counters before either field
   * overflows: one thread takes a cell's count past the carry (2^23 adds) and its bytes past theirs
   * (2^39, adds of up to {@link Tally#PACKED_BYTES_MAX}, and larger ones that go to the wide
   * counter straight), while four others add and the test drains: every count and byte is drained
   * once, and each counted add saw a count of its own in its cell or -1 (a carry overlapped it).
   */
  @Test
  void packedPairsCarryWithoutLosingOrDoublingACountOrAByte() throws Exception {
    Tally t = new Tally(5, 2); // two pairs, then one plain counter
    long[] sizes = {0, 1, 4096, Tally.PACKED_BYTES_MAX, Tally.PACKED_BYTES_MAX + 1, 5L << 30};
    int threads = 4;
    int perThread = 300_000;
    int alone = (1 << (Tally.COUNT_BITS - 1)) + 100_000; // past one cell's count carry
    CyclicBarrier start = new CyclicBarrier(threads + 2);
    Queue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    java.util.Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
    java.util.concurrent.atomic.AtomicLong counted = new java.util.concurrent.atomic.AtomicLong();
    java.util.concurrent.atomic.AtomicLong overlapped =
        new java.util.concurrent.atomic.AtomicLong();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i <= threads; i++) {
      int id = i;
      Thread w =
          new Thread(
              () -> {
                try {
                  start.await();
                  GateThread g = GateThread.current();
                  if (id == threads) { // the one that takes its cell past the count's carry
                    for (int n = 0; n < alone; n++) {
                      t.addPair(g, t.cell(g), 0, 3, false);
                    }
                    return;
                  }
                  for (int n = 0; n < perThread; n++) {
                    long[] cell = t.cell(g);
                    long c = t.addPair(g, cell, 1, sizes[n % sizes.length], true);
                    if (c < 0) {
                      overlapped.incrementAndGet();
                    } else if (!seen.add((long) System.identityHashCode(cell) << 40 | c)) {
                      throw new AssertionError("count " + c + " seen twice in one cell");
                    } else {
                      counted.incrementAndGet();
                    }
                    t.addTo(cell, 4, 1);
                  }
                } catch (Throwable e) {
                  failures.add(
                      new AssertionError(Thread.currentThread().getName() + " failed: " + e, e));
                }
              },
              "tally-pair-" + i);
      workers.add(w);
      w.start();
    }
    start.await();
    long[] sum = new long[5];
    while (workers.stream().anyMatch(Thread::isAlive)) {
      long[] d = t.drain();
      for (int i = 0; i < 5; i++) {
        sum[i] += d[i];
      }
    }
    for (Thread w : workers) {
      w.join();
    }
    WorkerFailures.rethrow(failures);
    long[] d = t.drain();
    for (int i = 0; i < 5; i++) {
      sum[i] += d[i];
    }
    long adds = (long) threads * perThread;
    long bytes = 0;
    for (int n = 0; n < perThread; n++) {
      bytes += sizes[n % sizes.length];
    }
    assertArrayEquals(new long[] {alone, 3L * alone, adds, bytes * threads, adds}, sum);
    assertArrayEquals(sum, t.total());
    // How many overlapped a carry depends on the scheduler (a carrier preempted mid-carry): only
    // that each add either saw its own count or said it could not is asserted.
    assertEquals(adds, counted.get() + overlapped.get());
  }

  /**
   * One thread alone on its cell adds past the packed count's whole field (2^24): the carries keep
   * the count and the bytes apart, and each counted add sees the count it made.
   */
  @Test
  void aCellCountsPastItsPackedFieldExactly() {
    Tally t = new Tally(2, 1);
    GateThread g = GateThread.current();
    long n = (1L << Tally.COUNT_BITS) + 1_000;
    for (long i = 1; i <= n; i++) {
      long c = t.addPair(g, t.cell(g), 0, 7, i % 1_000_000 == 0);
      if (i % 1_000_000 == 0) {
        assertEquals(i, c, "the count the " + i + "th add saw");
      }
    }
    assertArrayEquals(new long[] {n, 7 * n}, t.total());
    assertArrayEquals(new long[] {n, 7 * n}, t.drain());
  }

  /** Adds {@code x} to counter {@code slot} of {@code t}, on the calling thread's cell. */
  private static void add(Tally t, int slot, long x) {
    GateThread g = GateThread.current();
    t.add(g, t.cell(g), slot, x);
  }
}
