package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TierLedgerTest {
  @Test
  void admitsUpToTheBudgetAndDeclinesPastIt() {
    TierLedger ledger = new TierLedger(Tier.HEAP, 100);
    TierLedger.Admission a = ledger.tryReserve(60);
    assertTrue(a.admitted());
    assertEquals(60, a.heldAfter());
    TierLedger.Admission b = ledger.tryReserve(41);
    assertFalse(b.admitted());
    assertEquals(60, b.heldAfter(), "a decline changes nothing");
    assertTrue(ledger.tryReserve(40).admitted(), "exactly to the budget fits");
    assertEquals(100, ledger.held());
  }

  @Test
  void theAllocationFreeFormDecidesAsTryReserveDoes() {
    TierLedger ledger = new TierLedger(Tier.HEAP, 100);
    assertEquals(60, ledger.reserve(60));
    long declined = ledger.reserve(41);
    assertTrue(declined < 0, "41 more do not fit");
    assertEquals(60, TierLedger.declinedAt(declined), "the decline saw 60 held");
    assertEquals(100, ledger.reserve(40), "exactly to the budget fits");
    ledger.giveBack(100);
    assertEquals(0, ledger.held());
    ledger.setBudget(0);
    long none = ledger.reserve(1);
    assertTrue(none < 0);
    assertEquals(0, TierLedger.declinedAt(none), "an empty ledger declines too, and says so");
    assertEquals(0, ledger.reserve(0), "nothing always fits");
  }

  @Test
  void aShrunkenBudgetStopsAdmissionsAndEvictsNothing() {
    TierLedger ledger = new TierLedger(Tier.DIRECT, 100);
    TierLedger.Reservation r = ledger.tryReserve(80).reservation();
    ledger.setBudget(50);
    assertEquals(80, ledger.held(), "nothing evicted");
    assertFalse(ledger.tryReserve(1).admitted());
    r.release();
    assertTrue(ledger.tryReserve(50).admitted());
  }

  @Test
  void aReservationIsReleasedExactlyOnce() {
    TierLedger ledger = new TierLedger(Tier.HEAP, 100);
    TierLedger.Reservation r = ledger.tryReserve(30).reservation();
    assertTrue(r.release());
    assertFalse(r.release());
    assertEquals(0, ledger.held());
  }

  /**
   * Guards the check-then-act race: two threads that both read held = 90 under a budget of 100 must
   * not both add 10. Eight threads hammer one ledger; after every admission the held bytes they
   * observe stay within the budget, and after all releases (racing releases of the same reservation
   * included) held is exactly zero.
   */
  @Test
  void eightThreadsNeverPushPastTheBudgetAndReleaseToZero() throws Exception {
    long budget = 10_000;
    TierLedger ledger = new TierLedger(Tier.HEAP, budget);
    ConcurrentLinkedQueue<TierLedger.Reservation> held = new ConcurrentLinkedQueue<>();
    AtomicLong overBudget = new AtomicLong();
    AtomicLong doubleReleases = new AtomicLong();
    onThreads(
        8,
        seed -> {
          for (int i = 0; i < 20_000; i++) {
            TierLedger.Admission a = ledger.tryReserve(1 + (i * 31 + seed) % 97);
            if (a.heldAfter() > budget) {
              overBudget.incrementAndGet();
            }
            if (a.admitted()) {
              held.add(a.reservation());
            }
            if (i % 3 == 0) {
              TierLedger.Reservation r = held.poll();
              if (r != null) {
                r.release();
                if (r.release()) {
                  doubleReleases.incrementAndGet();
                }
              }
            }
          }
        });
    assertEquals(0, overBudget.get(), "an admission left held over the budget");
    assertTrue(ledger.held() <= budget);
    held.forEach(TierLedger.Reservation::release);
    assertEquals(0, doubleReleases.get());
    assertEquals(0, ledger.held(), "every admitted byte released exactly once");
  }

  /**
   * Threads reserve from their stripes' grants; what they leave unused there is not lost: once they
   * are done, held is exactly zero and one thread can take the whole budget, the other stripes'
   * grants handed back to it.
   */
  @Test
  void bytesLeftUnusedInOtherThreadsStripesStayAdmittable() throws Exception {
    long budget = 1 << 20;
    TierLedger ledger = new TierLedger(Tier.HEAP, budget);
    AtomicLong declined = new AtomicLong();
    onThreads(
        8,
        seed -> {
          for (int i = 0; i < 10_000; i++) {
            if (ledger.reserve(1000) < 0) {
              declined.incrementAndGet();
            } else {
              ledger.giveBack(1000);
            }
          }
        });
    assertEquals(0, declined.get(), "8 x 1000 bytes at a time always fit in 1 MiB");
    assertEquals(0, ledger.held());
    assertEquals(budget, ledger.reserve(budget), "the whole budget, from every stripe's grants");
    assertTrue(ledger.reserve(1) < 0);
    assertEquals(budget, ledger.held());
  }

  /**
   * Sixteen threads, over most stripes, each reserve 1 KiB and give it back, over and over for two
   * seconds, under a 140 KiB budget: at most 16 KiB are held at any moment, so none may be
   * declined. Two stripes' grants ({@link TierLedger#GRANT} beyond what they reserve) fill this
   * budget, so the grants are swept back again and again; before the grants' lock, the other
   * stripes could be granted the swept bytes again before the sweeping thread looked, and after
   * four sweeps it declined: this test failed in 4 runs of 4 on a 2-core machine, with 1 to 259
   * declines, one of which saw 140 KiB held (bytes in flight between the grants and a stripe); on
   * CI's many cores a unit test of the agent failed so.
   */
  @Test
  void reservationsThatFitAreNeverDeclinedWhileOtherStripesSweepAndRegrant() throws Exception {
    long budget = 140 << 10;
    TierLedger ledger = new TierLedger(Tier.DIRECT, budget);
    AtomicLong declined = new AtomicLong();
    AtomicLong sawHeld = new AtomicLong();
    long end = System.nanoTime() + 2_000_000_000L;
    onThreads(
        16,
        seed -> {
          while (System.nanoTime() - end < 0) {
            for (int i = 0; i < 1000; i++) {
              long r = ledger.reserve(1024, budget);
              if (r < 0) {
                declined.incrementAndGet();
                sawHeld.accumulateAndGet(TierLedger.declinedAt(r), Math::max);
              } else {
                ledger.giveBack(1024);
              }
            }
          }
        });
    assertEquals(
        0, declined.get(), "16 x 1 KiB fit in 140 KiB; a decline saw held " + sawHeld.get());
    assertEquals(0, ledger.held(), "every admitted byte came back");
  }

  /** A budget shrunk below the stripes' grants stops the stripes too, not only the tier. */
  @Test
  void aBudgetShrunkUnderTheGrantsStopsTheStripesToo() {
    TierLedger ledger = new TierLedger(Tier.HEAP, 1 << 20);
    assertEquals(1000, ledger.reserve(1000)); // this thread's stripe is granted more than that
    ledger.setBudget(1000);
    long r = ledger.reserve(1);
    assertTrue(r < 0, "the stripe's unused grant is over the new budget");
    assertEquals(1000, TierLedger.declinedAt(r));
    assertEquals(1000, ledger.held());
    ledger.giveBack(1000);
    assertEquals(1000, ledger.reserve(1000), "and the whole new budget is usable");
  }

  /**
   * A decision taken against the budget its caller read stays within that budget, so its record
   * says held <= budget even when a refresh has moved the ledger's budget meanwhile.
   */
  @Test
  void aReservationAgainstAReadBudgetStaysWithinIt() {
    TierLedger ledger = new TierLedger(Tier.HEAP, 100);
    long read = ledger.budget();
    ledger.setBudget(200); // a refresh raises it after the caller read 100
    assertEquals(-1 - 0, ledger.reserve(120, read), "checked against what was read");
    assertEquals(0, ledger.held(), "a decline changes nothing");
    assertEquals(120, ledger.reserve(120), "the plain form checks the budget as it is");
    ledger.setBudget(50); // a refresh lowers it below what is held
    assertEquals(-1 - 120, ledger.reserve(1, ledger.budget()));
  }

  /**
   * Runs {@code work} on {@code threads} threads started together (each given its index); joins.
   * Whatever a worker throws (a failed assertion included) fails the calling test once all have
   * ended: the first as an {@link AssertionError} naming its thread, the others suppressed in it.
   */
  private static void onThreads(int threads, java.util.function.IntConsumer work)
      throws InterruptedException {
    CyclicBarrier start = new CyclicBarrier(threads);
    List<Thread> workers = new ArrayList<>();
    ConcurrentLinkedQueue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    for (int t = 0; t < threads; t++) {
      final int seed = t;
      Thread w =
          new Thread(
              () -> {
                try {
                  start.await();
                  work.accept(seed);
                } catch (Throwable e) {
                  failures.add(
                      new AssertionError(Thread.currentThread().getName() + " failed: " + e, e));
                }
              },
              "ledger-worker-" + t);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    AssertionError first = failures.poll();
    if (first != null) {
      for (AssertionError next; (next = failures.poll()) != null; ) {
        first.addSuppressed(next);
      }
      throw first;
    }
  }
}
