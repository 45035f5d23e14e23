package org.flodl.budget.agent.scenario;

import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.USED_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.junit.jupiter.api.Test;

/**
 * Scenario 3, the seed's rig: the loader feeds {@code cuda:0} (sites-rig.properties) with 16 KiB
 * batches, the VRAM probe pinned at the seed's numbers ({@code fixed:5592M/6360465408}: over the
 * 0.90 cap, so capacity allows no batch ahead). The double-buffer floor still sees 256 batches of
 * free VRAM and keeps the loader at depth 2, where the seed fell back to the synchronous path; with
 * VRAM that cannot hold 256 batches the agent does fall back (depth 0). Both deliver the same
 * samples. The benchmark (benchmarks/scenarios.sh) compares their epoch times.
 */
class RigScenarioIT {
  static final String SEED_PROBE = "vram_probe=fixed:5592M/6360465408";

  /** 2 MiB free: 128 batches of 16 KiB, under the floor's 256. */
  static final String FULL_PROBE = "vram_probe=fixed:6358368256/6360465408";

  static final List<String> APP =
      List.of(
          "--sample-bytes=1K",
          "--batch-size=16",
          "--samples=512",
          "--epochs=2",
          "--depth=8",
          "--latency-us=500",
          "--compute-iters=20000",
          "--cache=false");

  @Test
  void theDoubleBufferFloorKeepsTheLoaderPipelinedAtTheSeedsNumbers() throws Exception {
    String sites = "sites=" + LoaderApp.sites("sites-rig.properties");
    ChildJvm.Result floor =
        LoaderApp.child("rig-floor")
            .agent(sites + "," + SEED_PROBE)
            .record()
            .run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, floor.exitCode, floor.toString());
    assertEquals("true", floor.value("exactly_once"), floor.toString());
    assertEquals(2, LoaderApp.epoch(floor, 1).get("depth"), floor.stdout);
    assertEquals(2, LoaderApp.epoch(floor, 2).get("depth"), floor.stdout);
    assertDepthEvents(floor, 2, "DOUBLE_BUFFER_FLOOR", 5592L << 20);

    ChildJvm.Result sync =
        LoaderApp.child("rig-sync")
            .agent(sites + "," + FULL_PROBE)
            .record()
            .run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, sync.exitCode, sync.toString());
    assertEquals(0, LoaderApp.epoch(sync, 1).get("depth"), sync.stdout);
    assertDepthEvents(sync, 0, "SYNC_FALLBACK", 6358368256L);
    assertEquals(
        floor.value("checksum"),
        sync.value("checksum"),
        "pipelined or synchronous, the same samples are trained on");
  }

  private static void assertDepthEvents(ChildJvm.Result r, long depth, String reason, long used)
      throws Exception {
    List<RecordedEvent> events = r.events(PrefetchDepthEvent.NAME);
    assertEquals(2, events.size(), "one decision per epoch's loader: " + events);
    for (RecordedEvent e : events) {
      assertEquals("feed", e.getString(SITE));
      assertEquals("cuda:0", e.getString(DEVICE));
      assertEquals(used, e.getLong(USED_BYTES));
      assertEquals(6360465408L, e.getLong(TOTAL_BYTES));
      assertEquals(16384, e.getLong(BATCH_BYTES));
      assertEquals(8, e.getLong(REQUESTED_DEPTH));
      assertEquals(depth, e.getLong(DEPTH), e.toString());
      assertEquals(reason, e.getString(REASON), e.toString());
    }
  }
}
