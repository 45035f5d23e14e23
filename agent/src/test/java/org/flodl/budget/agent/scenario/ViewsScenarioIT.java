package org.flodl.budget.agent.scenario;

import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm;
import org.flodl.budget.agent.it.LoaderEpoch;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.junit.jupiter.api.Test;

/**
 * Scenario 2, views: samples are {@code ByteBuffer} slices of 64 MiB row groups and the cache keeps
 * 1% of them (every 100th sample id). Without the agent those few slices keep every row group
 * reachable: the live heap after a full GC is the whole dataset. With it each slice is priced at
 * what it retains, materialized (copied) before the cache keeps it, and the live heap falls to the
 * one open row group plus the copies. Asserts memory by ratios of live heap (after GC), never time.
 */
class ViewsScenarioIT {
  static final long ROW_GROUP = 64L << 20;
  static final List<String> APP =
      List.of(
          "--sample-kind=slice",
          "--row-group-bytes=64M",
          "--sample-bytes=64K",
          "--samples=3072",
          "--cache-every=100",
          "--epochs=2",
          "--batch-size=16",
          "--depth=2",
          "--report-memory=true",
          "--evict-at-end=false");

  @Test
  void slicesOfRowGroupsAreMaterializedSoTheCachePinsOnlyWhatItCharged() throws Exception {
    ChildJvm.Result bare =
        LoaderApp.child("views-bare", "-Xmx640m").run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, bare.exitCode, bare.toString());
    LoaderEpoch bareEnd = LoaderApp.epoch(bare, 2);
    long cachedBytes = bareEnd.get("cacheBytes");
    assertEquals(31 * (64L << 10), cachedBytes, "31 samples of 64 KiB cached (ids 0, 100, ...)");
    assertTrue(
        bareEnd.get("heapLive") >= 3 * ROW_GROUP,
        "1% of the samples pin all three row groups without the agent: " + bareEnd);

    ChildJvm.Result r =
        LoaderApp.child("views-enforce", "-Xmx640m")
            .agent("sites=" + LoaderApp.sites("sites.properties"))
            .record()
            .run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("true", r.value("exactly_once"), r.toString());
    assertEquals(bare.value("checksum"), r.value("checksum"), "the copies hold the same bytes");
    LoaderEpoch end = LoaderApp.epoch(r, 2);
    assertEquals(31, end.get("cacheSize"), "the budget never binds here: every put admitted");
    assertEquals(31, end.get("cacheHits"));
    assertTrue(
        end.get("heapLive") < 2 * ROW_GROUP,
        "with the agent only the open row group and the copies stay live: " + end);
    assertTrue(
        end.get("heapLive") * 2 < bareEnd.get("heapLive"),
        "the agent's live heap is under half the bare run's: " + end + " vs " + bareEnd);
    System.out.printf(
        "views scenario: live heap %d MiB without the agent, %d MiB with; RSS %d"
            + " MiB / %d MiB%n",
        bareEnd.get("heapLive") >> 20,
        end.get("heapLive") >> 20,
        bareEnd.get("rss") >> 20,
        end.get("rss") >> 20);

    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(31, admissions.size(), "one decision per put");
    for (RecordedEvent e : admissions) {
      assertEquals(Decision.ADMIT_MATERIALIZED.name(), e.getString(DECISION), e.toString());
      assertTrue(e.getBoolean(MATERIALIZED), e.toString());
      assertEquals(64L << 10, e.getLong(LOGICAL_BYTES));
      assertTrue(e.getLong(STORAGE_BYTES) >= 64L << 10, e.toString());
      assertTrue(
          e.getLong(CHARGED_BYTES) < 2 * (64L << 10) + 1024,
          "charged the copy, not the row group: " + e);
    }
  }
}
