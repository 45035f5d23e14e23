package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.junit.jupiter.api.Test;

/**
 * Each admitted value gives its bytes back exactly once, whichever comes first: a release site that
 * sees it (by identity, not equality) or its collection.
 */
class HoldingsTest {
  private final Budgets budgets =
      new Budgets(
          () -> {
            throw new IllegalStateException("no probes in this test");
          },
          null,
          Duration.ofSeconds(1),
          0.5,
          0.5,
          0.9,
          () -> 1.0);
  private final TierLedger ledger = budgets.ledger(Tier.HEAP);
  private final CacheSite site = new CacheSite("test", 0);
  private final Holdings holdings = new Holdings();

  HoldingsTest() {
    ledger.setBudget(1L << 40);
  }

  @Test
  void aReleaseSiteReleasesOnceAndMatchesByIdentityNotEquality() {
    String value = new String("sample");
    ledger.reserve(100);
    holdings.track(value, ledger, 100, site);
    assertEquals(100, ledger.held());
    assertEquals(
        0,
        holdings.release(new String("sample"), GateThread.current()),
        "an equal object is another value");
    assertEquals(100, holdings.release(value, GateThread.current()));
    assertEquals(
        0, holdings.release(value, GateThread.current()), "the second release finds nothing");
    assertEquals(0, ledger.held());
    assertEquals(0, holdings.size());
  }

  @Test
  void theSameObjectAdmittedTwiceIsChargedOnce() {
    byte[] value = new byte[10];
    ledger.reserve(10);
    assertTrue(holdings.track(value, ledger, 10, site));
    ledger.reserve(10);
    assertFalse(holdings.track(value, ledger, 10, site), "held already: its bytes go back");
    assertEquals(10, ledger.held());
    holdings.release(value, GateThread.current());
    assertEquals(0, ledger.held());
  }

  /** The race: eight threads release by site while the collector releases the values dropped. */
  @Test
  void releaseSitesAndCollectionRacingReleaseEachByteOnce() throws Exception {
    int threads = 8;
    int perThread = 2_000;
    AtomicLong admitted = new AtomicLong();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    Queue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                try {
                  go.await();
                  List<Object> kept = new ArrayList<>();
                  for (int i = 0; i < perThread; i++) {
                    byte[] v = new byte[32 + (i % 7)];
                    assertTrue(ledger.reserve(v.length) >= 0);
                    holdings.track(v, ledger, v.length, site);
                    admitted.addAndGet(v.length);
                    if (i % 2 == 0) {
                      kept.add(v);
                    }
                  }
                  for (Object v : kept) {
                    holdings.release(
                        v,
                        GateThread
                            .current()); // the other half is dropped: the collector releases it
                  }
                } catch (Throwable e) {
                  failures.add(
                      new AssertionError(Thread.currentThread().getName() + " failed: " + e, e));
                }
              },
              "holdings-worker-" + t);
      workers.add(w);
      w.start();
    }
    go.countDown();
    for (Thread w : workers) {
      w.join();
    }
    WorkerFailures.rethrow(failures);
    // The releaser hands a collected value's bytes back on its own thread: a wait for it, to a
    // deadline for a loaded machine (200 rounds were 4 s of it), not a bound on how soon.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (ledger.held() != 0 && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(0, ledger.held(), "every admitted byte came back");
    assertEquals(
        admitted.get(),
        releasedSinceLast(),
        "and none came back twice (the site's released bytes)");
    assertTrue(holdings.size() == 0, "nothing left tracked");
  }

  @Test
  void aChargeOfFourGibibytesOrMoreComesBackWhole() {
    long big = (5L << 30) + 3; // over an unsigned int: kept by the larger kind of holding
    Object value = new Object();
    assertTrue(ledger.reserve(big) >= 0);
    assertTrue(holdings.track(value, ledger, big, site));
    assertEquals(big, ledger.held());
    assertEquals(big, holdings.release(value, GateThread.current()));
    assertEquals(0, ledger.held());
  }

  /**
   * Holdings of collected values do not stay linked: the releaser hands their bytes back and, once
   * they are a quarter of what is linked, sweeps them out of the table.
   */
  @Test
  void collectedValuesHoldingsAreUnlinkedNotKept() throws Exception {
    int n = 20_000;
    for (int i = 0; i < n; i++) {
      byte[] v = new byte[16];
      assertTrue(ledger.reserve(16) >= 0);
      assertTrue(holdings.track(v, ledger, 16, site));
    }
    assertEquals(n, holdings.linked());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // see the test above
    while ((ledger.held() != 0 || holdings.linked() != 0) && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(20);
    }
    assertEquals(0, ledger.held(), "every collected value's bytes came back");
    assertEquals(n * 16L, releasedSinceLast(), "once each");
    assertEquals(0, holdings.linked(), "and no holding of a collected value stays linked");
    assertTrue(holdings.sweeps() >= 1, "the releaser swept them");
    assertEquals(new Holdings().buckets(), holdings.buckets(), "and the tables shrank back");
  }

  @Test
  void tablesGrowWithTheValuesAndShrinkOnceReleasedForGood() {
    int n = 50_000;
    List<byte[]> values = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      byte[] v = new byte[8];
      values.add(v);
      assertTrue(ledger.reserve(8) >= 0);
      assertTrue(holdings.track(v, ledger, 8, site));
    }
    long fresh = new Holdings().buckets();
    assertTrue(holdings.buckets() >= n, "about a bucket a value: " + holdings.buckets());
    for (byte[] v : values) {
      assertTrue(holdings.holds(v), "every value found after the growths");
    }
    long released = 0;
    for (byte[] v : values) {
      released += holdings.release(v, GateThread.current());
    }
    assertEquals(8L * n, released);
    assertEquals(0, ledger.held());
    assertTrue(holdings.buckets() >= n, "a release keeps the buckets: the cache may refill");
    holdings.trim();
    assertTrue(holdings.buckets() >= n, "sparse at one trim: kept till the next");
    holdings.trim();
    assertEquals(fresh, holdings.buckets(), "sparse at two trims running: the tables shrank back");
  }

  /** Returns the bytes the site's ledger counted as released since the last look. */
  private long releasedSinceLast() {
    long sum = 0;
    for (CacheSite.Tiered t :
        site.close(
            new long[org.flodl.budget.policy.Tier.values().length][CacheSite.KINDS],
            Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY,
            1)) {
      sum += t.counts().releasedBytes();
    }
    return sum;
  }
}
