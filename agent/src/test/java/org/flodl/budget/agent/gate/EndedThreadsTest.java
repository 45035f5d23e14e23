package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
 * The rows that deciding threads leave on a cache site once they have ended, in a JVM that records
 * nothing (no periodic close ever drains them): the probe thread drops them, and the site's counts
 * and the sampler's leftovers keep every decision they made, once.
 */
class EndedThreadsTest {
  private static final int THREADS = 48;

  @Test
  void theProbeThreadDropsTheRowsOfEndedThreadsWithoutARecording() throws Exception {
    GateEngine e = GateAdmissionTest.engine(Mode.ENFORCE, Duration.ofMillis(100));
    int admit = e.bindAdmit("ended-threads-test", false, true, null);
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
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (site.rows() > 0 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertEquals(0, site.rows(), "every deciding thread has ended: none of their rows is kept");

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
   * Sixteen threads count 100 sampled admissions each and end; their rows are retired before the
   * close: the events due (their weights) and the close's leftovers add up to every admission.
   */
  @Test
  void whatRetiredRowsLeftUnsampledReachesTheNextClose() throws Exception {
    CacheSite site = new CacheSite("ended-threads-site", 0);
    AtomicLong weights = new AtomicLong();
    List<Thread> workers = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      Thread w =
          new Thread(
              () -> {
                GateThread t = GateThread.current();
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
    assertEquals(16, site.rows());
    site.retireEnded();
    assertEquals(0, site.rows());
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
}
