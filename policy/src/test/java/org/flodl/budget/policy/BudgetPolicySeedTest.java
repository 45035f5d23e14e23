package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The seed's tests ({@code budget.rs}, {@code mod tests}), at the seed's own numbers: the GTX 1060
 * rig running OLMo-150M that a 3-rank olmo/cpu-cadence run reported on 2026-07-28.
 */
class BudgetPolicySeedTest {
  static final long PASCAL_USED = 5592L << 20; // GTX 1060 6GB, OLMo-150M + AdamW
  static final long PASCAL_TOTAL = 6_360_465_408L; // cudaMemGetInfo total, not nvidia-smi's
  static final long OLMO_ACTIVATION_PEAK = 1682L << 20;
  static final long OLMO_BATCH_BYTES = 16L << 10; // seq 256 x batch 4, 2 int64 tensors

  @Test
  void aModelAboveTheCapStillGetsADoubleBuffer() {
    long cap = (long) (PASCAL_TOTAL * 0.90);
    assertTrue(PASCAL_USED > cap, "premise: the model alone is over the cap");

    PrefetchDepth depth =
        BudgetPolicy.depthFromProbe(PASCAL_USED, PASCAL_TOTAL, 0.90, 0, OLMO_BATCH_BYTES);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, depth.depth());
    assertEquals(PrefetchDepth.Reason.DOUBLE_BUFFER_FLOOR, depth.reason());

    // The floor holds even when a caller still passes the peak.
    PrefetchDepth withReserve =
        BudgetPolicy.depthFromProbe(
            PASCAL_USED, PASCAL_TOTAL, 0.90, OLMO_ACTIVATION_PEAK, OLMO_BATCH_BYTES);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, withReserve.depth());
  }

  @Test
  void theActivationPeakIsWhatDroveTheBudgetToZero() {
    long used = 3L << 30; // 3 GiB resident, ~2.3 GiB under the cap
    long honest =
        BudgetPolicy.depthFromProbe(used, PASCAL_TOTAL, 0.90, 0, OLMO_BATCH_BYTES).depth();
    long doubleCounted =
        BudgetPolicy.depthFromProbe(
                used, PASCAL_TOTAL, 0.90, OLMO_ACTIVATION_PEAK, OLMO_BATCH_BYTES)
            .depth();
    assertTrue(honest > 100_000, "honest probe should afford the whole chunk: " + honest);
    assertTrue(
        doubleCounted < honest / 2,
        "charging the peak twice must visibly shrink the budget: "
            + doubleCounted
            + " vs "
            + honest);
  }

  @Test
  void aBatchTooLargeForTheHeadroomKeepsTheSyncFallback() {
    long free = PASCAL_TOTAL - PASCAL_USED; // 473 MB
    long fatBatch = free / 4;
    PrefetchDepth depth = BudgetPolicy.depthFromProbe(PASCAL_USED, PASCAL_TOTAL, 0.90, 0, fatBatch);
    assertEquals(0, depth.depth());
    assertEquals(PrefetchDepth.Reason.SYNC_FALLBACK, depth.reason());
  }

  @Test
  void aFailedProbeDeclinesTheFloor() {
    PrefetchDepth depth = BudgetPolicy.depthFromProbe(Long.MAX_VALUE, 0, 0.90, 0, OLMO_BATCH_BYTES);
    assertEquals(0, depth.depth());
    assertEquals(PrefetchDepth.Reason.PROBE_FAILED, depth.reason());
  }

  @Test
  void anchoredBudgetIsAFixedPointBothWays() {
    long a0 = 1000;
    double r = 0.5;
    long b0 = BudgetPolicy.anchoredRamBudget(a0, 0, r);
    for (long held : new long[] {100, 400, 500}) {
      assertEquals(b0, BudgetPolicy.anchoredRamBudget(a0 - held, held, r));
    }
  }

  @Test
  void ramShareIsCeilinged() {
    assertEquals(900, BudgetPolicy.anchoredRamBudget(1000, 0, 5.0));
    assertEquals(900, BudgetPolicy.stagerRamBudget(1000, 0, 5.0, 1.0));
  }

  @Test
  void stagerBudgetSharesAndAnchors() {
    assertEquals(250, BudgetPolicy.stagerRamBudget(1000, 0, 0.5, 0.5));
    assertEquals(250, BudgetPolicy.stagerRamBudget(800, 200, 0.5, 0.5));
  }

  @Test
  void stagerSplitIsThreeToOne() {
    assertEquals(new StagerSplit(100, 75, 25), BudgetPolicy.splitStagerBudget(100));
    assertEquals(new StagerSplit(0, 0, 0), BudgetPolicy.splitStagerBudget(0));
    StagerSplit seven = BudgetPolicy.splitStagerBudget(7);
    assertEquals(7, seven.pinnedBytes() + seven.streamBytes());
    assertEquals(6, seven.pinnedBytes(), "the remainder goes to the pinned tier");
  }

  @Test
  void retentionPricesViewsByStorage() {
    // The seed's 8x8 f32 tensor: 256 bytes of storage. The buffer-level version of this test
    // (real views, real copies) lives with the pricer; here the rule itself, at the same numbers.
    long storage = 8 * 8 * Float.BYTES;
    // Owner: logical == storage, kept, charged its bytes.
    assertEquals(256, BudgetPolicy.retainedCost(256, storage));
    assertTrue(!BudgetPolicy.shouldMaterialize(256, storage));
    // A one-row view: 32 logical bytes pinning 256: materialized, charged 32.
    assertTrue(BudgetPolicy.shouldMaterialize(32, storage));
    assertEquals(32, BudgetPolicy.retainedCost(32, storage));
    // Half the buffer: within the slack, kept as a view, charged the full storage.
    assertTrue(!BudgetPolicy.shouldMaterialize(128, storage));
    assertEquals(256, BudgetPolicy.retainedCost(128, storage));
  }
}
