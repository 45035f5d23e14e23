package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * The DJL app (three Linear blocks, an ArrayDataset, a 2-thread executor, optPrefetchNumber) trained
 * offline on the PyTorch CPU engine with the agent and no sites file: one PrefetchDepth decision per
 * epoch with the priced batch bytes, every epoch's samples in the batches and order of a run
 * without the agent; a ring budget
 * that fits 3 batches lowers a request of 8 to 3; a decision of 0 drops the executor and every
 * epoch still yields all its batches.
 */
class DjlTrainIT {
  static final int EPOCHS = 4;
  /** TrainDjl's batch: 32 samples × (16 features + 1 label) × 4 bytes (float32). */
  static final long BATCH_BYTES = 32 * 17 * 4;
  static final int BATCHES = 2048 / 32;
  static final String TRAIN = "com.acme.djl.TrainDjl";

  @Test
  void trainsInEnforceModeWithOneDecisionPerEpoch() throws Exception {
    ChildJvm.Result bare = AppJvm.DJL.run("djl-train-bare", null, TRAIN, "--epochs=" + EPOCHS);
    assertEquals(0, bare.exitCode, bare.toString());
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-enforce", "mode=enforce", TRAIN,
        "--epochs=" + EPOCHS);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES, BATCHES, BATCHES), AppJvm.batches(r));
    // What the agent controls: every epoch trains on every sample, in the batches and the order
    // of the run without it (same seed). The losses are the machine's floating point, not its.
    sameBatches(bare, r);

    List<RecordedEvent> depth = r.events("flodl.budget.PrefetchDepth");
    assertEquals(EPOCHS, depth.size(), "one decision per epoch: " + depth);
    for (RecordedEvent e : depth) {
      assertEquals("djl", e.getString("site"));
      assertEquals("cpu", e.getString("device"));
      assertEquals(BATCH_BYTES, e.getLong("batchBytes"), "priced batch: " + e);
      assertEquals(4, e.getLong("requestedDepth"));
      // cap mode keeps the request where the ring fits it: 4 batches of 2,176 bytes always do
      assertEquals(4, e.getLong("depth"), e.toString());
      assertEquals("REQUESTED", e.getString("reason"), e.toString());
      assertEquals(0, e.getLong("activationReserve"));
    }
    assertEquals(EPOCHS, r.events("flodl.budget.RingSlots").size(), "a host ring per epoch");
    List<RecordedEvent> woven = r.events("flodl.agent.Instrumented");
    assertTrue(woven.stream().anyMatch(e -> e.getString("className")
        .equals("ai.djl.training.dataset.DataIterable") && e.getString("outcome").equals("WOVEN")
        && e.getString("site").equals("djl")), woven.toString());
    assertTrue(woven.stream().anyMatch(e -> e.getString("className")
        .equals("ai.djl.training.dataset.BulkDataIterable")
        && e.getString("outcome").equals("WOVEN")), woven.toString());
  }

  /** Asserts that {@code r}'s epochs delivered {@code bare}'s samples in {@code bare}'s order. */
  static void sameBatches(ChildJvm.Result bare, ChildJvm.Result r) {
    List<String> contents = AppJvm.epochTexts(bare, "contents");
    assertEquals(contents, AppJvm.epochTexts(r, "contents"), "the samples of every epoch: " + r);
    for (String c : contents) {
      assertEquals(contents.get(0), c, "every epoch delivers the whole dataset: " + bare);
    }
    assertEquals(AppJvm.epochTexts(bare, "order"), AppJvm.epochTexts(r, "order"),
        "in the same batches and order: " + r);
  }

  @Test
  void capLowersARequestOfEightToTheThreeSlotsTheRingFits() throws Exception {
    // ram_probe=fixed:14K: the ring budget is 7 KiB, 3 batches of 2176 bytes.
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-ring3", "prefetch=cap,ram_probe=fixed:14K", TRAIN,
        "--epochs=2", "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(List.of(BATCHES, BATCHES), AppJvm.batches(r));
    List<RecordedEvent> depth = r.events("flodl.budget.PrefetchDepth");
    assertEquals(2, depth.size(), depth.toString());
    for (RecordedEvent e : depth) {
      assertEquals(8, e.getLong("requestedDepth"));
      assertEquals(3, e.getLong("depth"), e.toString());
      assertEquals("CAPACITY", e.getString("reason"));
      assertEquals(BATCH_BYTES, e.getLong("batchBytes"));
    }
    for (RecordedEvent e : r.events("flodl.budget.RingSlots")) {
      assertEquals(3, e.getLong("slots"), e.toString());
      assertEquals(14 << 10, e.getLong("availableBytes"));
    }
  }

  @Test
  void aDepthOfZeroDropsTheExecutorAndEveryEpochYieldsAllItsBatches() throws Exception {
    // ram_probe=fixed:1K: the ring budget (512 bytes) fits no batch: 0, the synchronous path.
    ChildJvm.Result bare = AppJvm.DJL.run("djl-train-sync-bare", null, TRAIN, "--epochs=2");
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-sync", "ram_probe=fixed:1K", TRAIN, "--epochs=2");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES), AppJvm.batches(r));
    sameBatches(bare, r);
    List<RecordedEvent> depth = r.events("flodl.budget.PrefetchDepth");
    assertEquals(2, depth.size(), depth.toString());
    for (RecordedEvent e : depth) {
      assertEquals(0, e.getLong("depth"), e.toString());
      assertEquals("NO_FIT", e.getString("reason"), "the host ring's own reason");
    }
  }

  @Test
  void aSubtypeWithItsOwnFetchIsWovenAtItsFirstConstructionAndPriced() throws Exception {
    // --dataset=rows: not an ArrayDataset (the first epoch is unpriced), iterated by its own
    // DataIterable subtype whose fetch never calls super.
    ChildJvm.Result bare = AppJvm.DJL.run("djl-train-rows-bare", null, TRAIN, "--epochs=3",
        "--dataset=rows");
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-rows", "", TRAIN, "--epochs=3", "--dataset=rows");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(List.of(BATCHES, BATCHES, BATCHES), AppJvm.batches(r));
    sameBatches(bare, r);
    List<RecordedEvent> woven = r.events("flodl.agent.Instrumented");
    assertTrue(woven.stream().anyMatch(e -> e.getString("className")
        .equals("com.acme.djl.RowDataset$RowIterable") && e.getString("outcome").equals("WOVEN")
        && e.getString("message").contains("batch pricing at fetch")), woven.toString());
    List<RecordedEvent> depth = r.events("flodl.budget.PrefetchDepth");
    assertEquals(3, depth.size(), depth.toString());
    assertEquals("UNPRICED_BATCH", depth.get(0).getString("reason"), depth.toString());
    assertEquals(0, depth.get(0).getLong("batchBytes"));
    assertEquals(BATCH_BYTES, depth.get(1).getLong("batchBytes"), "priced by the subtype's fetch");
    assertEquals(BATCH_BYTES, depth.get(2).getLong("batchBytes"));
  }
}
