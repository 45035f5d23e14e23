package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.flodl.budget.policy.SpinWait;
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

  /**
   * The threads that wait for the pricer spin: none blocks on a monitor (a virtual thread blocked
   * on one leaves its carrier to another sample's thread, JDK 24 and later).
   */
  @Test
  void noThreadWaitingForThePricerBlocksOnAMonitor() throws Exception {
    CountDownLatch making = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    LazyPricer lazy =
        new LazyPricer(
            () -> {
              making.countDown();
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return RetentionPricer.standard(null, null);
            });
    // A waiter's first pause would initialize SpinWait (and link its Thread.isVirtual handle), and
    // a thread waiting for another's class initialization shows as BLOCKED: 1 run in 12 failed so.
    // Done here first, as in any JVM past its first wait; a monitor keeps a waiter BLOCKED
    // throughout.
    SpinWait.pause(64, 0);
    Thread maker = new Thread(lazy::get);
    maker.start();
    making.await();
    List<Thread> waiters = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Thread t = new Thread(lazy::get);
      t.start();
      waiters.add(t);
    }
    try {
      for (int look = 0; look < 200; look++) { // 200 ms of looks while the maker is held
        for (Thread t : waiters) {
          assertNotEquals(Thread.State.BLOCKED, t.getState(), "a waiter blocked on a monitor");
        }
        Thread.sleep(1);
      }
    } finally {
      release.countDown();
    }
    maker.join();
    for (Thread t : waiters) {
      t.join();
    }
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
