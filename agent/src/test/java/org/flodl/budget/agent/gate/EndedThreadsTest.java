package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;

/**
 * Threads that decide and end, in a JVM that records nothing (no periodic close ever drains the
 * site): the site keeps no state per thread (its cells stay within their cap), and its counts and
 * the sampler's leftovers keep every decision they made, once.
 */
class EndedThreadsTest {
  private static final int THREADS = 48;

  @Test
  void endedThreadsLeaveNothingOnTheSiteAndTheirCountsStay() throws Exception {
    GateEngine e = GateAdmissionTest.engine(Mode.ENFORCE, Duration.ofMillis(100));
    int admit = e.bindAdmit("ended-threads-test", false, true, null, null);
    int release = e.bindRelease("ended-threads-test");
    CacheSite site = ((Point.Admit) e.point(admit)).site();
    Queue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < THREADS; i++) {
      Thread w =
          new Thread(
              () -> {
                ByteBuffer v = ByteBuffer.allocateDirect(4096);
                try {
                  Object kept = e.admitCall(admit, v);
                  if (kept != v) {
                    throw new AssertionError(
                        "declined: "
                            + e.totals("ended-threads-test").counts()
                            + ", direct budget "
                            + e.budgets().get(Tier.DIRECT)
                            + ", held "
                            + e.held().get(Tier.DIRECT));
                  }
                  e.release(release, new Object[] {0}, v);
                } catch (Throwable x) {
                  failures.add(new AssertionError(Thread.currentThread().getName() + ": " + x, x));
                }
              },
              "ended-threads-" + i);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    WorkerFailures.rethrow(failures);
    assertTrue(
        site.cells() <= Tally.MAX_CELLS, site.cells() + " cells for " + THREADS + " threads");

    SiteSummaryEvent.Counts c = e.totals("ended-threads-test").counts();
    assertEquals(THREADS, c.admissions(), "the counts keep the ended threads' decisions");
    assertEquals(THREADS, c.releases());
    assertEquals(c.admittedBytes(), c.releasedBytes(), "every admitted byte came back");
    assertEquals(0L, e.held().get(Tier.DIRECT));

    long[][] left = new long[Tier.values().length][CacheSite.KINDS];
    long admissions = 0;
    for (CacheSite.Tiered t : site.close(left, 1, 1, 1)) {
      admissions += t.counts().admissions();
    }
    assertEquals(THREADS, admissions, "the next close's summary");
  }

  /**
   * Sixteen threads count 100 sampled admissions each, at once, and end (the race: two threads of
   * one cell due an event together, the later count's mark moved first): the events due (their
   * weights) and the close's leftovers add up to every admission.
   */
  @Test
  void whatEndedThreadsLeftUnsampledReachesTheNextClose() throws Exception {
    CacheSite site = new CacheSite("ended-threads-site", 0);
    AtomicLong weights = new AtomicLong();
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(16);
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Thread w =
          new Thread(
              () -> {
                GateThread t = GateThread.current();
                try {
                  start.await();
                } catch (Exception x) {
                  throw new IllegalStateException(x);
                }
                for (int n = 0; n < 100; n++) {
                  weights.addAndGet(site.count(t, Tier.HEAP, CacheSite.ADMIT, 10, false, true));
                }
              },
              "ended-site-" + i);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    assertTrue(site.cells() <= Tally.MAX_CELLS, site.cells() + " cells");
    long[][] left = new long[Tier.values().length][CacheSite.KINDS];
    List<CacheSite.Tiered> closed = site.close(left, 1, 1, 1);
    assertEquals(1, closed.size(), "one tier decided: " + closed);
    assertEquals(1600, closed.get(0).counts().admissions());
    assertEquals(16_000, closed.get(0).counts().admittedBytes());
    long rest = left[Tier.HEAP.ordinal()][CacheSite.ADMIT];
    assertEquals(1600, weights.get() + rest, "weights " + weights + ", leftovers " + rest);
    long[][] again = new long[Tier.values().length][CacheSite.KINDS];
    site.close(again, 1, 1, 1);
    assertEquals(0, again[Tier.HEAP.ordinal()][CacheSite.ADMIT], "the leftovers go once");
  }

  /**
   * With every decision wanted as an event (throttle {@code off}), eight threads that share cells
   * each get one event of weight 1 per decision (the race: a later count of the cell moving the
   * mark past an earlier one's, which then had no event), so the events are as many as the
   * decisions.
   */
  @Test
  void withTheThrottleOffEachDecisionOnASharedCellGetsItsOwnEvent() throws Exception {
    CacheSite site = new CacheSite("every-decision-site", 0);
    site.close(new long[Tier.values().length][CacheSite.KINDS], Double.POSITIVE_INFINITY, 1, 1);
    AtomicLong events = new AtomicLong();
    AtomicLong weights = new AtomicLong();
    java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(8);
    Queue<AssertionError> failures = new ConcurrentLinkedQueue<>();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Thread w =
          new Thread(
              () -> {
                GateThread t = GateThread.current();
                try {
                  start.await();
                  for (int n = 0; n < 20_000; n++) {
                    long weight = site.count(t, Tier.HEAP, CacheSite.ADMIT, 10, false, true);
                    if (weight != 1) {
                      throw new AssertionError("decision " + n + " had weight " + weight);
                    }
                    events.incrementAndGet();
                    weights.addAndGet(weight);
                  }
                } catch (Throwable x) {
                  failures.add(new AssertionError(Thread.currentThread().getName() + ": " + x, x));
                }
              },
              "every-decision-" + i);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    WorkerFailures.rethrow(failures);
    assertEquals(160_000, events.get());
    long[][] left = new long[Tier.values().length][CacheSite.KINDS];
    site.close(left, Double.POSITIVE_INFINITY, 1, 1);
    assertEquals(0, left[Tier.HEAP.ordinal()][CacheSite.ADMIT], "no decision left without one");
  }
}
