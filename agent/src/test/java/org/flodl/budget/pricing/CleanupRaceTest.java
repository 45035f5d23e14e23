package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * The releases of declined values under real threads: four threads decline values (each registers
 * its release, its holder at once unreachable) and run what the collector found ({@code collect},
 * the declining thread's share) while the pricer's own thread runs them too. What it promises: each
 * release runs exactly once, on whichever thread gets to it first, and nothing stays pending. Not a
 * model checker's: which thread runs a release is decided by the collector's enqueue and the JDK's
 * reference queue, which hands each reference to one of the threads polling it, and no model
 * checker plays either.
 */
class CleanupRaceTest {
  private static final int THREADS = 4;
  private static final int EACH = 300;

  @Test
  void eachReleaseRunsOnceWhicheverThreadGetsToItFirst() throws Exception {
    Cleanup cleanup = new Cleanup(line -> {});
    AtomicIntegerArray ran = new AtomicIntegerArray(THREADS * EACH);
    ValuePricer pricer =
        new ValuePricer() {
          @Override
          public boolean supports(Object value) {
            return true;
          }

          @Override
          public Priced price(Object value, RetentionPricer p) {
            throw new UnsupportedOperationException();
          }

          @Override
          public boolean releaseWhenUnreachable(Object value, Releases releases) {
            int id = (Integer) value;
            releases.whenUnreachable(new Object(), () -> ran.incrementAndGet(id));
            return true;
          }
        };
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      int base = t * EACH;
      Thread th =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < EACH; i++) {
                  cleanup.release(pricer, base + i, 1000, Long.MAX_VALUE);
                  if (i % 25 == 0) {
                    cleanup.collect(1_000_000, () -> false);
                  }
                }
              });
      th.start();
      threads.add(th);
    }
    start.countDown();
    for (Thread th : threads) {
      th.join(60_000);
    }
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (cleanup.pendingBytes() > 0 && System.nanoTime() < deadline) {
      cleanup.collect(100_000_000, () -> cleanup.pendingBytes() == 0);
    }
    assertEquals(0, cleanup.pendingBytes(), "nothing pending");
    for (int i = 0; i < THREADS * EACH; i++) {
      assertEquals(1, ran.get(i), "the release of value " + i + " ran once");
    }
  }
}
