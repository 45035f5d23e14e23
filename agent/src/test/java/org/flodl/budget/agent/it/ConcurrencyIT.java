package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.BYTES;
import static org.flodl.budget.events.EventFields.CAUSE;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.SOURCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.ReleaseCause;
import org.flodl.budget.events.ReleaseEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exact books under concurrency and release: 8 threads admitting at once never push the heap tier
 * past its budget, and once everything is handed back (a release site, or the collector when the
 * cache drops values unseen) held is exactly 0, each admitted byte released once. A budget shrunk
 * through the MBean below what is held stops admissions and evicts nothing.
 */
class ConcurrencyIT {

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void eightThreadsNeverPassTheBudgetAndReleaseToZero(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("threads8", jdk)
            .jvm("-Xmx128m")
            .agent("sites=" + sites)
            .record()
            .run(
                "com.acme.it.CacheApp",
                "--samples=2000",
                "--sample-bytes=65536",
                "--threads=8",
                "--evict-at-end");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("2000", r.value("DELIVERED"));
    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(2000, admissions.size());
    assertTrue(
        admissions.stream().anyMatch(e -> e.getString(DECISION).equals(Decision.DECLINE.name())),
        "the budget was reached");
    long threads = admissions.stream().map(e -> e.getThread().getJavaName()).distinct().count();
    assertEquals(8, threads, "all 8 threads admitted");
    long charged = 0;
    for (RecordedEvent e : admissions) {
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), "over budget: " + e);
        charged += e.getLong(CHARGED_BYTES);
      }
    }
    assertEquals("heap=0", r.value("HELD_AFTER_EVICT"), r.toString());
    List<RecordedEvent> releases = r.events(ReleaseEvent.NAME);
    assertEquals(charged, releases.stream().mapToLong(e -> e.getLong(BYTES)).sum());
    assertTrue(
        releases.stream()
            .allMatch(e -> e.getString(CAUSE).equals(ReleaseCause.RELEASE_SITE.name())));
  }

  @Test
  void valuesDroppedUnseenAreReleasedWhenCollected() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("collected", jdk)
            .jvm("-Xmx128m")
            .agent("sites=" + sites)
            .record()
            .run("com.acme.it.CacheApp", "--samples=200", "--sample-bytes=65536", "--clear-at-end");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("heap=0", r.value("HELD_AFTER_CLEAR"), r.toString());
    long admitted =
        r.events(CacheAdmissionEvent.NAME).stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .mapToLong(e -> e.getLong(CHARGED_BYTES))
            .sum();
    List<RecordedEvent> releases = r.events(ReleaseEvent.NAME);
    assertTrue(admitted > 0);
    assertEquals(admitted, releases.stream().mapToLong(e -> e.getLong(BYTES)).sum());
    assertTrue(
        releases.stream().allMatch(e -> e.getString(CAUSE).equals(ReleaseCause.COLLECTED.name())),
        "no release site saw them");
  }

  @Test
  void aShrunkBudgetStopsAdmissionsAndEvictsNothing() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("shrink", jdk)
            .jvm("-Xmx128m")
            .agent("sites=" + sites)
            .record()
            .run("com.acme.it.CacheApp", "--samples=100", "--sample-bytes=65536", "--shrink-at=50");
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("SHRUNK heap_max_usage=0.01"), r.toString());
    int atShrink = Integer.parseInt(r.value("CACHED_AT_SHRINK"));
    assertEquals(50, atShrink, "the budget admitted the first 50: " + r);
    assertEquals(
        atShrink, Integer.parseInt(r.value("CACHED")), "nothing admitted, nothing evicted");
    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    for (int i = 50; i < admissions.size(); i++) {
      RecordedEvent e = admissions.get(i);
      assertEquals(Decision.DECLINE.name(), e.getString(DECISION), e.toString());
      assertTrue(e.getLong(HELD_BYTES) > e.getLong(BUDGET_BYTES), "held over the new budget");
    }
    assertTrue(
        r.events(ConfigurationEvent.NAME).stream()
            .anyMatch(
                e ->
                    e.getString(KEY).equals("heap_max_usage")
                        && e.getString(SOURCE).equals("RUNTIME")),
        "the change is recorded");
  }

  /**
   * Two thousand threads that each decide a few times and end, in a JVM that records nothing (no
   * periodic close drains the sites): once they have ended, nothing of theirs is left (the heap's
   * histogram counts no thread state of the agent's), and the app saw every put kept and evicted.
   */
  @Test
  void threadsThatDecideAndEndLeaveNothingBehindWithoutARecording() throws Exception {
    Path sites = Sites.write("hammer", RecordingsIT.HAMMER);
    ChildJvm child =
        ChildJvm.on("churn", Jdk.JDK17)
            .jvm("-Xmx128m")
            .agent("sites=" + sites + ",probe_interval=100ms");
    Process app =
        child.start("com.acme.it.ThreadChurnApp", "--rounds=250", "--threads=8", "--puts=4");
    try {
      RecordingsIT.awaitLine(child, "CHURNED", 120);
      long rows = -1;
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (System.nanoTime() < deadline && (rows = instances(app.pid(), ROW)) > 4) {
        Thread.sleep(200);
      }
      // The threads alive keep theirs (main, the agent's releaser): 2,000 ended ones none.
      assertTrue(rows <= 4, rows + " thread states kept: " + child.stdoutSoFar());
    } finally {
      app.getOutputStream().close();
    }
    ChildJvm.Result r = child.await(app);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("8000", r.value("PUTS"));
    assertEquals("8000", r.value("ADMITTED"));
    assertEquals("8000", r.value("RELEASED"));
  }

  private static final String ROW = "org.flodl.budget.agent.gate.GateThread";

  /** Returns the live instances of {@code className} in process {@code pid} (jcmd's histogram). */
  static long instances(long pid, String className) throws Exception {
    Process jcmd =
        new ProcessBuilder(
                Jdk.JDK17.java().resolveSibling("jcmd").toString(),
                Long.toString(pid),
                "GC.class_histogram")
            .redirectErrorStream(true)
            .start();
    String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, jcmd.waitFor(), out);
    for (String line : out.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 4 && f[3].equals(className)) {
        return Long.parseLong(f[1]);
      }
    }
    assertTrue(out.contains("#instances"), "no histogram: " + out);
    return 0;
  }
}
