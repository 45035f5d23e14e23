package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The edges the seed does not reach: zero, {@code Long.MAX_VALUE}, knobs outside (0, 1], NaN. */
class BudgetPolicyEdgeTest {
  static final long MAX = Long.MAX_VALUE;

  @Test
  void hugeInputsSaturateInsteadOfWrapping() {
    assertEquals((long) (MAX * 0.5), BudgetPolicy.anchoredRamBudget(MAX, MAX, 0.5));
    assertTrue(BudgetPolicy.anchoredRamBudget(MAX, 1, 0.9) > 0);
    assertTrue(BudgetPolicy.sampleCacheBudget(MAX, MAX, 0, 0.5) > 0);
    assertEquals(0, BudgetPolicy.sampleCacheBudget(1000, 0, MAX, 0.5), "ring larger than budget");
    assertTrue(BudgetPolicy.stagerRamBudget(MAX, MAX, 0.9, 1.0) > 0);
    StagerSplit split = BudgetPolicy.splitStagerBudget(MAX);
    assertEquals(MAX, split.pinnedBytes() + split.streamBytes());
  }

  @Test
  void zeroAvailableMeansZeroBudget() {
    assertEquals(0, BudgetPolicy.anchoredRamBudget(0, 0, 0.5));
    assertEquals(0, BudgetPolicy.sampleCacheBudget(0, 0, 0, 0.5));
    assertEquals(0, BudgetPolicy.stagerRamBudget(0, 0, 0.5, 0.5));
  }

  @Test
  void negativeSizesAreReadAsZero() {
    assertEquals(0, BudgetPolicy.anchoredRamBudget(-5, -5, 0.5));
    assertEquals(new StagerSplit(0, 0, 0), BudgetPolicy.splitStagerBudget(-1));
  }

  @Test
  void knobsOutsideTheUnitIntervalKeepTheSeedsMeaning() {
    assertEquals(0, BudgetPolicy.anchoredRamBudget(1000, 0, 0.0));
    assertEquals(0, BudgetPolicy.anchoredRamBudget(1000, 0, -1.0));
    assertEquals(900, BudgetPolicy.anchoredRamBudget(1000, 0, Double.POSITIVE_INFINITY));
    assertEquals(500, BudgetPolicy.stagerRamBudget(1000, 0, 0.5, 7.0), "share above 1 is 1");
    assertEquals(0, BudgetPolicy.stagerRamBudget(1000, 0, 0.5, -0.5), "share below 0 is 0");
    // VRAM knob clamps to 0.5..0.99.
    assertEquals((long) (1000 * 0.5), BudgetPolicy.depthFromProbe(0, 1000, 0.01, 0, 1).capBytes());
    assertEquals((long) (1000 * 0.99), BudgetPolicy.depthFromProbe(0, 1000, 3.0, 0, 1).capBytes());
  }

  @Test
  void nanKnobsAreRejectedNamingTheKnob() {
    IllegalArgumentException ram =
        assertThrows(
            IllegalArgumentException.class,
            () -> BudgetPolicy.anchoredRamBudget(1000, 0, Double.NaN));
    assertTrue(ram.getMessage().contains("ram_max_usage"), ram.getMessage());
    IllegalArgumentException share =
        assertThrows(
            IllegalArgumentException.class,
            () -> BudgetPolicy.stagerRamBudget(1000, 0, 0.5, Double.NaN));
    assertTrue(share.getMessage().contains("host_share"), share.getMessage());
    IllegalArgumentException vram =
        assertThrows(
            IllegalArgumentException.class,
            () -> BudgetPolicy.depthFromProbe(0, 1000, Double.NaN, 0, 1));
    assertTrue(vram.getMessage().contains("vram_max_usage"), vram.getMessage());
    IllegalArgumentException ring =
        assertThrows(
            IllegalArgumentException.class,
            () -> BudgetPolicy.ringSlotsFromRam(1, 1, Double.NaN, OptionalLong.of(1), 1));
    assertTrue(ring.getMessage().contains("ram_max_usage"), ring.getMessage());
  }

  @Test
  void requireFractionNamesTheKnobAndTheRange() {
    assertEquals(0.5, Knobs.requireFraction("heap_max_usage", 0.5));
    assertEquals(1.0, Knobs.requireFraction("heap_max_usage", 1.0));
    for (double bad : new double[] {0.0, -0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> Knobs.requireFraction("heap_max_usage", bad));
      assertTrue(e.getMessage().startsWith("heap_max_usage must be"), e.getMessage());
    }
  }

  @Test
  void ringSlotsFollowTheSeed() {
    long mib = 1L << 20;
    // 1 GiB available, r = 0.5: 512 MiB budget, 64 MiB batches (8 MiB x 8): 8 slots.
    RingSlots fit =
        BudgetPolicy.ringSlotsFromRam(8 * mib, 8, 0.5, OptionalLong.of(1024 * mib), 100);
    assertEquals(8, fit.slots());
    assertEquals(RingSlots.Reason.CAPACITY, fit.reason());
    assertEquals(512 * mib, fit.budgetBytes());
    // Capped at the epoch's batches.
    RingSlots epoch =
        BudgetPolicy.ringSlotsFromRam(8 * mib, 8, 0.5, OptionalLong.of(1024 * mib), 3);
    assertEquals(3, epoch.slots());
    assertEquals(RingSlots.Reason.EPOCH_CAP, epoch.reason());
    // Disabled reader stage.
    assertEquals(0, BudgetPolicy.ringSlotsFromRam(1, 1, 0.0, OptionalLong.of(1), 10).slots());
    assertEquals(
        RingSlots.Reason.DISABLED,
        BudgetPolicy.ringSlotsFromRam(1, 1, -1.0, OptionalLong.of(1), 10).reason());
    // Unmeasured host RAM: the fallback of 4, capped at the epoch.
    RingSlots unmeasured = BudgetPolicy.ringSlotsFromRam(mib, 8, 0.5, OptionalLong.empty(), 100);
    assertEquals(4, unmeasured.slots());
    assertEquals(RingSlots.Reason.UNMEASURED_FALLBACK, unmeasured.reason());
    assertEquals(2, BudgetPolicy.ringSlotsFromRam(mib, 8, 0.5, OptionalLong.empty(), 2).slots());
    // Unpriced batch: the fallback of 4.
    RingSlots unpriced = BudgetPolicy.ringSlotsFromRam(0, 8, 0.5, OptionalLong.of(mib), 100);
    assertEquals(4, unpriced.slots());
    assertEquals(RingSlots.Reason.UNPRICED_BATCH, unpriced.reason());
    // One batch does not fit: single-stage pipeline.
    RingSlots noFit = BudgetPolicy.ringSlotsFromRam(mib, 8, 0.5, OptionalLong.of(mib), 100);
    assertEquals(0, noFit.slots());
    assertEquals(RingSlots.Reason.NO_FIT, noFit.reason());
    // Overflowing batch price saturates: no fit rather than a wrapped negative price.
    assertEquals(
        0, BudgetPolicy.ringSlotsFromRam(MAX, MAX, 0.5, OptionalLong.of(MAX), 100).slots());
  }

  @Test
  void ringWithACacheIsCappedAtEight() {
    long mib = 1L << 20;
    RingSlots wide =
        BudgetPolicy.ringSlotsFromRam(mib, 1, 0.5, OptionalLong.of(1024 * mib), 1000, false);
    assertEquals(512, wide.slots());
    RingSlots capped =
        BudgetPolicy.ringSlotsFromRam(mib, 1, 0.5, OptionalLong.of(1024 * mib), 1000, true);
    assertEquals(BudgetPolicy.RING_SLOTS_WITH_CACHE, capped.slots());
    assertEquals(RingSlots.Reason.CACHE_CAP, capped.reason());
  }

  @Test
  void prefetchDepthFromVramOnCpuAndUnpricedIsTheDoubleBuffer() {
    PrefetchDepth cpu = BudgetPolicy.prefetchDepthFromVram(1024, 16, false, MAX, 0, 0.9, 0);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, cpu.depth());
    assertEquals(PrefetchDepth.Reason.CPU_OVERLAP, cpu.reason());
    PrefetchDepth unpriced = BudgetPolicy.prefetchDepthFromVram(0, 16, true, 0, 1L << 30, 0.9, 0);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, unpriced.depth());
    assertEquals(PrefetchDepth.Reason.UNPRICED_BATCH, unpriced.reason());
    // The seed's rig through the full entry point: 16 KiB batch = 1024 B x 16.
    PrefetchDepth rig =
        BudgetPolicy.prefetchDepthFromVram(
            1024,
            16,
            true,
            BudgetPolicySeedTest.PASCAL_USED,
            BudgetPolicySeedTest.PASCAL_TOTAL,
            0.90,
            0);
    assertEquals(PrefetchDepth.Reason.DOUBLE_BUFFER_FLOOR, rig.reason());
    assertEquals(2, rig.depth());
  }

  @Test
  void depthNeverWrapsAndAZeroBatchDoesNotDivide() {
    PrefetchDepth huge = BudgetPolicy.depthFromProbe(0, MAX, 0.99, 0, 1);
    assertTrue(huge.depth() > 0);
    PrefetchDepth overfull = BudgetPolicy.depthFromProbe(MAX, MAX, 0.99, MAX, 1);
    assertEquals(0, overfull.depth());
    PrefetchDepth zeroBatch = BudgetPolicy.depthFromProbe(0, 1000, 0.9, 0, 0);
    assertEquals(PrefetchDepth.Reason.UNPRICED_BATCH, zeroBatch.reason());
    // The floor price saturates instead of wrapping into "fits".
    PrefetchDepth fat = BudgetPolicy.depthFromProbe(1, MAX, 0.5, MAX, MAX / 2);
    assertEquals(0, fat.depth());
  }

  @Test
  void capModeOnlyLowersTheDepth() {
    PrefetchDepth deep = BudgetPolicy.depthFromProbe(0, 1L << 30, 0.9, 0, 1L << 20);
    PrefetchDepth capped = deep.cappedAt(8);
    assertEquals(8, capped.depth());
    assertEquals(PrefetchDepth.Reason.REQUESTED, capped.reason());
    PrefetchDepth floor =
        BudgetPolicy.depthFromProbe(
            BudgetPolicySeedTest.PASCAL_USED,
            BudgetPolicySeedTest.PASCAL_TOTAL,
            0.9,
            0,
            BudgetPolicySeedTest.OLMO_BATCH_BYTES);
    assertEquals(floor, floor.cappedAt(8), "a request above the floor keeps the floor");
  }

  @Test
  void retentionRuleAtItsEdges() {
    assertEquals(0, BudgetPolicy.retainedCost(0, 0));
    assertEquals(0, BudgetPolicy.retainedCost(0, 10), "nothing addressed: copy nothing");
    assertEquals(20, BudgetPolicy.retainedCost(10, 20), "exactly twice is within the slack");
    assertEquals(10, BudgetPolicy.retainedCost(10, 21));
    assertEquals(MAX, BudgetPolicy.retainedCost(MAX, MAX));
    assertTrue(!BudgetPolicy.shouldMaterialize(MAX / 2 + 1, MAX), "2x logical saturates");
  }

  @Test
  void aStagersRingTakesTheFlowQuarterOfItsSplit() {
    long mib = 1L << 20;
    // Host 1000 MiB available, r = 0.5, share 0.5: stager 250 MiB, split 188 / 62 (remainder to
    // the pinned tier): 62 MiB of flow buys 15 batches of 4 MiB.
    long stager = BudgetPolicy.stagerRamBudget(1000 * mib, 0, 0.5, 0.5);
    StagerSplit split = BudgetPolicy.splitStagerBudget(stager);
    assertEquals(250 * mib, stager);
    RingSlots ring =
        BudgetPolicy.ringSlotsFromBudget(
            4 * mib, 1, 0.5, 1000 * mib, split.streamBytes(), 100, false);
    assertEquals(split.streamBytes() / (4 * mib), ring.slots());
    assertEquals(15, ring.slots());
    assertEquals(split.streamBytes(), ring.budgetBytes());
    assertEquals(
        RingSlots.Reason.UNPRICED_BATCH,
        BudgetPolicy.ringSlotsFromBudget(0, 1, 0.5, 1, 100, 100, false).reason());
  }
}
