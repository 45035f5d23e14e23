package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.USED_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One epoch's DataIterable built through DJL's own getData, never iterated (so a GPU device needs
 * no GPU): the decision the agent recorded and the arguments the constructor received (its
 * executor, the batches it queued).
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class DjlConstructIT {
  static final String CONSTRUCT = "com.acme.djl.ConstructIterable";

  @Test
  void theSeedsDoubleBufferFloorOnGpuZero() throws Exception {
    // batch 8 × (511 features + 1 label) × 4 bytes = 16 KiB, priced from the ArrayDataset.
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-construct-gpu",
            "djl=on,vram_probe=fixed:5592M/6360465408",
            CONSTRUCT,
            "--device=gpu",
            "--features=511",
            "--batch-size=8",
            "--prefetch=4");
    assertEquals(0, r.exitCode, r.toString());
    List<RecordedEvent> depth = r.events(PrefetchDepthEvent.NAME);
    assertEquals(1, depth.size(), depth.toString());
    RecordedEvent e = depth.get(0);
    assertEquals("cuda:0", e.getString(DEVICE));
    assertEquals(16 << 10, e.getLong(BATCH_BYTES));
    assertEquals(5592L << 20, e.getLong(USED_BYTES));
    assertEquals(6360465408L, e.getLong(TOTAL_BYTES));
    assertEquals(4, e.getLong(REQUESTED_DEPTH));
    assertEquals(2, e.getLong(DEPTH));
    assertEquals("DOUBLE_BUFFER_FLOOR", e.getString(REASON));
    assertEquals("present", r.value("executor"), r.toString());
    assertEquals("true", r.value("executor_same"));
    assertEquals("2", r.value("queued"), "the constructor received the depth: " + r);
  }

  @Test
  void aFatBatchOnTheSameCardIsSynchronousWithoutTheExecutor() throws Exception {
    // 4096 × 512 × 4 = 8 MiB a batch: 2 × 8 MiB × 256 is more than the 473 MiB free.
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-construct-gpu-sync",
            "djl=on,vram_probe=fixed:5592M/6360465408",
            CONSTRUCT,
            "--device=gpu",
            "--features=511",
            "--batch-size=4096",
            "--samples=8192",
            "--prefetch=4");
    assertEquals(0, r.exitCode, r.toString());
    RecordedEvent e = r.events(PrefetchDepthEvent.NAME).get(0);
    assertEquals(0, e.getLong(DEPTH), e.toString());
    assertEquals("SYNC_FALLBACK", e.getString(REASON));
    assertEquals("null", r.value("executor"), "depth 0 is a null executor: " + r);
    assertEquals("null", r.value("queued"));
  }

  @Test
  void aCpuRingOfThreeSlotsIsWhatTheConstructorReceives() throws Exception {
    // batch 8 × (4 + 1) × 4 = 160 bytes; fixed:1000 → ring budget 500 bytes → 3 slots.
    ChildJvm.Result bare =
        AppJvm.DJL.run("djl-construct-cpu-bare", null, CONSTRUCT, "--device=cpu", "--prefetch=8");
    assertEquals("8", bare.value("queued"), bare.toString());
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-construct-cpu",
            "djl=on,prefetch=cap,ram_probe=fixed:1000",
            CONSTRUCT,
            "--device=cpu",
            "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    RecordedEvent e = r.events(PrefetchDepthEvent.NAME).get(0);
    assertEquals("cpu", e.getString(DEVICE));
    assertEquals(160, e.getLong(BATCH_BYTES));
    assertEquals(3, e.getLong(DEPTH), e.toString());
    assertEquals("3", r.value("queued"), r.toString());
    assertEquals("present", r.value("executor"));
  }

  @Test
  void observeRecordsTheDecisionAndChangesNothing() throws Exception {
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-construct-observe",
            "mode=observe,ram_probe=fixed:1000",
            CONSTRUCT,
            "--device=cpu",
            "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    RecordedEvent e = r.events(PrefetchDepthEvent.NAME).get(0);
    assertEquals(3, e.getLong(DEPTH), e.toString());
    assertEquals(8, e.getLong(REQUESTED_DEPTH));
    assertEquals("8", r.value("queued"), "observe leaves the request: " + r);
  }

  /**
   * With a {@code role = stager} site in the sites file, the DJL epoch's host ring takes the flow
   * quarter of the stager split, as the sites-file prefetch sites do: fixed:1000 gives a host
   * budget of 500 bytes, its quarter 125 bytes, and no 160-byte batch fits (3 slots without it).
   */
  @Test
  void aStagersEpochTakesTheFlowQuarterOfTheSplit() throws Exception {
    Files.createDirectories(ChildJvm.WORK);
    Path sites =
        Files.writeString(
            ChildJvm.WORK.resolve("djl-stager.properties"),
            """
        site.stage.kind = prefetch-depth
        site.stage.method = com.acme.djl.NeverLoaded#depth
        site.stage.depth = return
        site.stage.role = stager
        """);
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-construct-stager",
            "prefetch=cap,ram_probe=fixed:1000,sites=" + sites.toAbsolutePath(),
            CONSTRUCT,
            "--device=cpu",
            "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    RecordedEvent ring = r.events(RingSlotsEvent.NAME).get(0);
    assertEquals(125, ring.getLong(BUDGET_BYTES), ring.toString());
    assertEquals("NO_FIT", ring.getString(REASON));
    RecordedEvent e = r.events(PrefetchDepthEvent.NAME).get(0);
    assertEquals(0, e.getLong(DEPTH), e.toString());
    assertEquals("null", r.value("executor"), "depth 0 drops the executor: " + r);
  }
}
