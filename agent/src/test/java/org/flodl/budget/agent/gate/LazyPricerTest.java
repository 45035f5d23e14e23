package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.flodl.budget.pricing.RetentionPricer;
import org.junit.jupiter.api.Test;

/**
 * The engine's pricer is made once, by one of the threads that ask for it together, and every one
 * of them gets that pricer; a factory that throws is tried again by the next caller.
 */
class LazyPricerTest {
  @Test
  void threadsThatAskTogetherGetThePricerOneOfThemMade() throws Exception {
    AtomicInteger made = new AtomicInteger();
    LazyPricer lazy =
        new LazyPricer(
            () -> {
              made.incrementAndGet();
              try {
                Thread.sleep(50); // the others arrive while it is made
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return RetentionPricer.standard(null, null);
            });
    int n = 16;
    CountDownLatch go = new CountDownLatch(1);
    RetentionPricer[] got = new RetentionPricer[n];
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                got[k] = lazy.get();
              });
      t.start();
      threads.add(t);
    }
    go.countDown();
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(1, made.get(), "made once");
    for (RetentionPricer p : got) {
      assertSame(got[0], p);
    }
    assertSame(got[0], lazy.get());
  }

  @Test
  void aFactoryThatThrowsIsTriedAgainByTheNextCaller() {
    AtomicInteger calls = new AtomicInteger();
    LazyPricer lazy =
        new LazyPricer(
            () -> {
              if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("the first lookup failed");
              }
              return RetentionPricer.standard(null, null);
            });
    assertThrows(IllegalStateException.class, lazy::get);
    RetentionPricer p = lazy.get();
    assertSame(p, lazy.get());
    assertEquals(2, calls.get());
  }
}
