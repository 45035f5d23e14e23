package org.flodl.budget.agent.scenario;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm;
import org.flodl.budget.agent.it.LoaderEpoch;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Test;

/**
 * Scenario 1, the heap: at {@code -Xmx256m} an epoch of 1 MiB samples larger than the heap, read
 * through the app's unbounded {@code SampleCache}. Without the agent the app dies of
 * OutOfMemoryError; with it every epoch finishes, every sample is delivered exactly once per epoch
 * (the checksum equals a run that caches nothing), the cache keeps what the heap budget allows and
 * serves it as hits on epoch 2. Small size here; {@code benchmarks/scenarios.sh} runs it at full
 * size.
 */
class HeapScenarioIT {
  static final List<String> APP =
      List.of(
          "--sample-bytes=1M",
          "--samples=320",
          "--epochs=2",
          "--batch-size=4",
          "--depth=4",
          "--row-group-bytes=8M");

  @Test
  void anEpochLargerThanTheHeapTrainsToTheEndWithTheAgent() throws Exception {
    ChildJvm.Result bare =
        LoaderApp.child("heap-bare", "-Xmx256m").run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertNotEquals(0, bare.exitCode, "without the agent the unbounded cache must fail: " + bare);
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());

    ChildJvm.Result uncached =
        LoaderApp.child("heap-uncached", "-Xmx256m")
            .run(LoaderApp.MAIN, LoaderApp.args(APP, "--cache=false"));
    assertEquals(0, uncached.exitCode, uncached.toString());

    ChildJvm enforce = LoaderApp.child("heap-enforce", "-Xmx256m");
    // The agent's own recording (record=), as the demo runs it.
    ChildJvm.Result r =
        enforce
            .agent(
                "sites=" + LoaderApp.sites("sites.properties") + ",record=" + enforce.recording())
            .run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("true", r.value("exactly_once"), r.toString());
    assertEquals("640", r.value("samples_delivered"), r.toString());
    assertEquals(
        uncached.value("checksum"),
        r.value("checksum"),
        "the same samples trained on as a run that caches nothing");

    LoaderEpoch e1 = LoaderApp.epoch(r, 1);
    LoaderEpoch e2 = LoaderApp.epoch(r, 2);
    assertEquals(320, e1.get("delivered"));
    assertEquals(320, e2.get("delivered"));
    assertEquals("true", e2.text("exactly_once"));
    long cached = e1.get("cacheSize");
    assertTrue(cached > 0 && cached < 320, "the cache kept part of the epoch: " + e1);
    assertEquals(cached, e2.get("cacheHits"), "epoch 2 is served from what epoch 1 cached: " + e2);
    System.out.printf(
        "heap scenario: epoch 2 hit rate %d/320 (%.1f%%)%n",
        e2.get("cacheHits"), 100.0 * e2.get("cacheHits") / 320);

    // record= samples the per-decision events (50/s per kind): each stands for the decisions of
    // its kind since the last, and the site summaries count every one.
    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    long decisions = admissions.stream().mapToLong(e -> e.getLong(DECISIONS)).sum();
    assertEquals(
        320 + e2.get("cacheMisses"),
        decisions,
        "one decision per put: every epoch-1 read, then every epoch-2 miss");
    long summarized =
        r.events(SiteSummaryEvent.NAME).stream()
            .mapToLong(e -> e.getLong(ADMISSIONS) + e.getLong(DECLINES))
            .sum();
    assertEquals(decisions, summarized, "the summaries count the same decisions");
    long admitted =
        admissions.stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .mapToLong(e -> e.getLong(DECISIONS))
            .sum();
    long declined =
        admissions.stream()
            .filter(e -> e.getString(DECISION).equals(Decision.DECLINE.name()))
            .mapToLong(e -> e.getLong(DECISIONS))
            .sum();
    assertTrue(declined > 0, "the budget declined samples");
    assertEquals(decisions, admitted + declined);
    for (RecordedEvent e : admissions) {
      assertEquals("heap", e.getString(TIER));
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), "over budget: " + e);
      }
    }
  }
}
