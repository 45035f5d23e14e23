package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ACTIVATION_RESERVE;
import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.MESSAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.SLOTS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.events.EventFields;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.junit.jupiter.api.Test;

/**
 * The DJL app (three Linear blocks, an ArrayDataset, a 2-thread executor, optPrefetchNumber)
 * trained offline on the PyTorch CPU engine with the agent and no sites file: one PrefetchDepth
 * decision per epoch with the priced batch bytes, every epoch's samples in the batches and order of
 * a run without the agent; a ring budget that fits 3 batches lowers a request of 8 to 3; a decision
 * of 0 drops the executor and every epoch still yields all its batches.
 */
class DjlTrainIT {
  static final int EPOCHS = 4;

  /** TrainDjl's batch: 32 samples × (16 features + 1 label) × 4 bytes (float32). */
  static final long BATCH_BYTES = 32 * 17 * 4;

  static final int BATCHES = 2048 / 32;
  static final String TRAIN = "com.acme.djl.TrainDjl";

  /** The array dataset's run without the agent, {@value #EPOCHS} epochs: see {@link #bare()}. */
  private static ChildJvm.Result bare;

  /**
   * Returns the array dataset's run without the agent, made once for the class: the runs under the
   * agent are compared with its epochs, as many as they train. Its sampler is seeded and draws the
   * same batches for an epoch however many follow it, so a run of two epochs is compared with its
   * first two (one JVM less than a run of two of its own).
   */
  private static ChildJvm.Result bare() throws Exception {
    if (bare == null) {
      ChildJvm.Result b = AppJvm.DJL.run("djl-train-bare", null, TRAIN, "--epochs=" + EPOCHS);
      assertEquals(0, b.exitCode, b.toString());
      bare = b;
    }
    return bare;
  }

  @Test
  void trainsInEnforceModeWithOneDecisionPerEpoch() throws Exception {
    ChildJvm.Result bare = bare();
    ChildJvm.Result r =
        AppJvm.DJL.run("djl-train-enforce", "mode=enforce", TRAIN, "--epochs=" + EPOCHS);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES, BATCHES, BATCHES), AppJvm.batches(r));
    // What the agent controls: every epoch trains on every sample, in the batches and the order
    // of the run without it (same seed). The losses are the machine's floating point, not its.
    sameBatches(bare, r);

    List<RecordedEvent> depth = r.events(PrefetchDepthEvent.NAME);
    assertEquals(EPOCHS, depth.size(), "one decision per epoch: " + depth);
    for (RecordedEvent e : depth) {
      assertEquals("djl", e.getString(SITE));
      assertEquals("cpu", e.getString(DEVICE));
      assertEquals(BATCH_BYTES, e.getLong(EventFields.BATCH_BYTES), "priced batch: " + e);
      assertEquals(4, e.getLong(REQUESTED_DEPTH));
      // cap mode keeps the request where the ring fits it: 4 batches of 2,176 bytes always do
      assertEquals(4, e.getLong(DEPTH), e.toString());
      assertEquals("REQUESTED", e.getString(REASON), e.toString());
      assertEquals(0, e.getLong(ACTIVATION_RESERVE));
    }
    assertEquals(EPOCHS, r.events(RingSlotsEvent.NAME).size(), "a host ring per epoch");
    List<RecordedEvent> woven = r.events(InstrumentedEvent.NAME);
    assertTrue(
        woven.stream()
            .anyMatch(
                e ->
                    e.getString(CLASS_NAME).equals("ai.djl.training.dataset.DataIterable")
                        && e.getString(OUTCOME).equals("WOVEN")
                        && e.getString(SITE).equals("djl")),
        woven.toString());
    assertTrue(
        woven.stream()
            .anyMatch(
                e ->
                    e.getString(CLASS_NAME).equals("ai.djl.training.dataset.BulkDataIterable")
                        && e.getString(OUTCOME).equals("WOVEN")),
        woven.toString());
  }

  /**
   * Asserts that {@code r}'s epochs delivered {@code bare}'s samples in {@code bare}'s order, epoch
   * by epoch, for as many epochs as {@code r} trained ({@code bare} may have trained more).
   */
  static void sameBatches(ChildJvm.Result bare, ChildJvm.Result r) {
    int epochs = AppJvm.epochTexts(r, "contents").size();
    List<String> contents = AppJvm.epochTexts(bare, "contents");
    assertTrue(contents.size() >= epochs, "the run without the agent trained fewer: " + bare);
    assertEquals(
        contents.subList(0, epochs),
        AppJvm.epochTexts(r, "contents"),
        "the samples of every epoch: " + r);
    for (String c : contents) {
      assertEquals(contents.get(0), c, "every epoch delivers the whole dataset: " + bare);
    }
    assertEquals(
        AppJvm.epochTexts(bare, "order").subList(0, epochs),
        AppJvm.epochTexts(r, "order"),
        "in the same batches and order: " + r);
  }

  @Test
  void capLowersARequestOfEightToTheThreeSlotsTheRingFits() throws Exception {
    // ram_probe=fixed:14K: the ring budget is 7 KiB, 3 batches of 2176 bytes.
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "djl-train-ring3",
            "djl=on,prefetch=cap,ram_probe=fixed:14K",
            TRAIN,
            "--epochs=2",
            "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(List.of(BATCHES, BATCHES), AppJvm.batches(r));
    List<RecordedEvent> depth = r.events(PrefetchDepthEvent.NAME);
    assertEquals(2, depth.size(), depth.toString());
    for (RecordedEvent e : depth) {
      assertEquals(8, e.getLong(REQUESTED_DEPTH));
      assertEquals(3, e.getLong(DEPTH), e.toString());
      assertEquals("CAPACITY", e.getString(REASON));
      assertEquals(BATCH_BYTES, e.getLong(EventFields.BATCH_BYTES));
    }
    for (RecordedEvent e : r.events(RingSlotsEvent.NAME)) {
      assertEquals(3, e.getLong(SLOTS), e.toString());
      assertEquals(14 << 10, e.getLong(AVAILABLE_BYTES));
    }
  }

  @Test
  void aDepthOfZeroDropsTheExecutorAndEveryEpochYieldsAllItsBatches() throws Exception {
    // ram_probe=fixed:1K: the ring budget (512 bytes) fits no batch: 0, the synchronous path.
    ChildJvm.Result bare = bare(); // its first two epochs
    ChildJvm.Result r =
        AppJvm.DJL.run("djl-train-sync", "djl=on,ram_probe=fixed:1K", TRAIN, "--epochs=2");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    assertEquals(List.of(BATCHES, BATCHES), AppJvm.batches(r));
    sameBatches(bare, r);
    List<RecordedEvent> depth = r.events(PrefetchDepthEvent.NAME);
    assertEquals(2, depth.size(), depth.toString());
    for (RecordedEvent e : depth) {
      assertEquals(0, e.getLong(DEPTH), e.toString());
      assertEquals("NO_FIT", e.getString(REASON), "the host ring's own reason");
    }
  }

  @Test
  void aSubtypeWithItsOwnFetchIsWovenAtItsFirstConstructionAndPriced() throws Exception {
    // --dataset=rows: not an ArrayDataset (the first epoch is unpriced), iterated by its own
    // DataIterable subtype whose fetch never calls super.
    ChildJvm.Result bare =
        AppJvm.DJL.run("djl-train-rows-bare", null, TRAIN, "--epochs=3", "--dataset=rows");
    ChildJvm.Result r = AppJvm.DJL.run("djl-train-rows", "", TRAIN, "--epochs=3", "--dataset=rows");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(List.of(BATCHES, BATCHES, BATCHES), AppJvm.batches(r));
    sameBatches(bare, r);
    List<RecordedEvent> woven = r.events(InstrumentedEvent.NAME);
    assertTrue(
        woven.stream()
            .anyMatch(
                e ->
                    e.getString(CLASS_NAME).equals("com.acme.djl.RowDataset$RowIterable")
                        && e.getString(OUTCOME).equals("WOVEN")
                        && e.getString(MESSAGE).contains("batch pricing at fetch")),
        woven.toString());
    List<RecordedEvent> depth = r.events(PrefetchDepthEvent.NAME);
    assertEquals(3, depth.size(), depth.toString());
    assertEquals("UNPRICED_BATCH", depth.get(0).getString(REASON), depth.toString());
    assertEquals(0, depth.get(0).getLong(EventFields.BATCH_BYTES));
    assertEquals(
        BATCH_BYTES,
        depth.get(1).getLong(EventFields.BATCH_BYTES),
        "priced by the subtype's fetch");
    assertEquals(BATCH_BYTES, depth.get(2).getLong(EventFields.BATCH_BYTES));
  }
}
