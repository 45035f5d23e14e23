package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** The per-thread counters of a cache-admit site: nothing lost or counted twice across drains. */
class TallyTest {
  @Test
  void drainsReturnWhatWasAddedSinceTheLastDrain() {
    Tally t = new Tally(3);
    t.add(0, 1);
    t.add(1, 10, 2, 100);
    assertArrayEquals(new long[] {1, 10, 100}, t.drain());
    assertArrayEquals(new long[] {0, 0, 0}, t.drain(), "a second drain finds nothing new");
    t.add(2, 5);
    assertArrayEquals(new long[] {0, 0, 5}, t.drain());
  }

  /**
   * Eight threads add while the test drains over and over: the drains add up to exactly what was
   * added, and the rows of the ended threads are folded in and dropped.
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
                    t.add(0, 1, 1, 3);
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
    assertEquals(0, t.rows(), "the ended threads' rows were folded into the totals");
    assertArrayEquals(new long[] {0, 0}, t.drain());
  }

  /**
   * Sixteen threads add and end: retiring drops their rows, the live thread's stays, each row is
   * visited once, and the totals and the next drain are what was added, counted once.
   */
  @Test
  void retiringEndedThreadsDropsTheirRowsAndKeepsTheirCounts() throws Exception {
    Tally t = new Tally(2);
    t.add(0, 1, 1, 7); // this thread's row: alive, kept
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Thread w = new Thread(() -> t.add(0, 1, 1, 3), "tally-ended-" + i);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertEquals(17, t.rows());
    List<long[]> visited = new ArrayList<>();
    assertEquals(16, t.retireEnded(visited::add));
    assertEquals(16, visited.size(), "each ended row seen once, before it goes");
    assertEquals(1, t.rows(), "the live thread's row stays");
    assertArrayEquals(new long[] {17, 55}, t.total(), "the totals keep the retired rows");
    assertEquals(0, t.retireEnded(visited::add), "nothing ended since");
    assertArrayEquals(new long[] {17, 55}, t.drain(), "the drain counts each add once");
    assertArrayEquals(new long[] {0, 0}, t.drain());
  }
}
