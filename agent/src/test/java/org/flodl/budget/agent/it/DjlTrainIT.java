package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;

/**
 * The DJL app (three Linear blocks, an ArrayDataset, a 2-thread executor, optPrefetchNumber) trained
 * offline on the PyTorch CPU engine with the agent and no sites file: one PrefetchDepth decision per
 * epoch with the priced batch bytes, the loss falling as it does without the agent; a ring budget
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
    assertEquals("true", r.value("loss_fell"), r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());

    List<Double> withAgent = AppJvm.losses(r);
    List<Double> without = AppJvm.losses(bare);
    assertEquals(EPOCHS, withAgent.size(), r.toString());
    assertEquals(EPOCHS, without.size(), bare.toString());
    // Same seed, same data: the first epoch's loss is the same; later epochs drift a little from
    // run to run (with or without the agent), so they must fall as far, within a third.
    assertEquals(without.get(0), withAgent.get(0), Math.abs(without.get(0)) * 1e-3,
        "epoch 1 loss with the agent vs without");
    for (int i = 1; i < EPOCHS; i++) {
      assertTrue(withAgent.get(i) < withAgent.get(0) / 5, "epoch " + (i + 1) + ": " + withAgent);
      assertEquals(without.get(i), withAgent.get(i), Math.abs(without.get(i)) / 3,
          "epoch " + (i + 1) + " loss with the agent vs without: " + withAgent + " vs " + without);
    }
    assertEquals(List.of(BATCHES, BATCHES, BATCHES, BATCHES), AppJvm.batches(r));

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
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-sync", "ram_probe=fixed:1K", TRAIN, "--epochs=2");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES), AppJvm.batches(r));
    assertEquals("true", r.value("loss_fell"), r.toString());
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
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-rows", "", TRAIN, "--epochs=3", "--dataset=rows");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("true", r.value("loss_fell"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES, BATCHES), AppJvm.batches(r));
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
