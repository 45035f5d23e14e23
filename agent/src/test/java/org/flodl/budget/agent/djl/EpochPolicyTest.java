package org.flodl.budget.agent.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.OptionalLong;
import org.flodl.budget.policy.PrefetchDepth.Reason;
import org.flodl.budget.policy.probe.VramReading;
import org.junit.jupiter.api.Test;

/** The DJL epoch decision at the seed's rig numbers and at the host ring's. */
class EpochPolicyTest {
  static final long PASCAL_USED = 5592L << 20;
  static final long PASCAL_TOTAL = 6_360_465_408L;
  static final VramReading PASCAL = new VramReading(PASCAL_USED, PASCAL_TOTAL, "fixed", null);
  static final long KIB16 = 16 << 10;

  static EpochPolicy.Inputs gpu(int requested, long batch, boolean first, VramReading v,
      boolean auto) {
    return new EpochPolicy.Inputs(true, requested, batch, 1000, first, v, OptionalLong.empty(),
        0.5, 0.90, false, auto, OptionalLong.empty());
  }

  static EpochPolicy.Inputs cpu(int requested, long batch, long available, boolean auto) {
    return new EpochPolicy.Inputs(false, requested, batch, 64, true, null,
        available < 0 ? OptionalLong.empty() : OptionalLong.of(available), 0.5, 0.90, false, auto,
        OptionalLong.empty());
  }

  @Test
  void aModelAboveTheCapKeepsTheDoubleBufferInEveryEpoch() {
    for (boolean first : new boolean[] {true, false}) {
      EpochPolicy.Decision d = EpochPolicy.decide(gpu(4, KIB16, first, PASCAL, false));
      assertEquals(2, d.applied());
      assertEquals(Reason.DOUBLE_BUFFER_FLOOR, d.depth().reason());
      assertEquals(KIB16, d.depth().batchBytes());
      assertNull(d.ring());
    }
  }

  @Test
  void theFirstEpochHoldsBackTheHeadroomLaterOnesReserveNothing() {
    VramReading roomy = new VramReading(3L << 30, PASCAL_TOTAL, "fixed", null);
    EpochPolicy.Decision first = EpochPolicy.decide(gpu(1_000_000, KIB16, true, roomy, true));
    EpochPolicy.Decision second = EpochPolicy.decide(gpu(1_000_000, KIB16, false, roomy, true));
    assertEquals(EpochPolicy.headroom(3L << 30, PASCAL_TOTAL, 0.90),
        first.depth().activationReserve());
    assertEquals(2, first.applied());
    assertEquals(Reason.DOUBLE_BUFFER_FLOOR, first.depth().reason());
    assertEquals(0, second.depth().activationReserve());
    assertEquals(Reason.CAPACITY, second.depth().reason());
    assertEquals(1000, second.applied(), "auto caps the capacity depth at the epoch's batches");
  }

  @Test
  void capKeepsALowerRequest() {
    EpochPolicy.Decision d = EpochPolicy.decide(gpu(1, KIB16, false, PASCAL, false));
    assertEquals(1, d.applied());
    assertEquals(Reason.REQUESTED, d.depth().reason());
  }

  @Test
  void anUnpricedBatchIsTheDoubleBufferOnAGpuAndFourOnTheHostEachCapped() {
    assertEquals(Reason.UNPRICED_BATCH, EpochPolicy.decide(gpu(8, 0, true, PASCAL, false))
        .depth().reason());
    assertEquals(2, EpochPolicy.decide(gpu(8, 0, true, PASCAL, false)).applied());
    assertEquals(4, EpochPolicy.decide(cpu(8, 0, 1L << 30, false)).applied());
    assertEquals(Reason.UNPRICED_BATCH, EpochPolicy.decide(cpu(8, 0, 1L << 30, false))
        .depth().reason());
    assertEquals(1, EpochPolicy.decide(gpu(1, 0, true, PASCAL, false)).applied());
  }

  @Test
  void theHostRingFitsThreeBatchesOfARequestOfEight() {
    EpochPolicy.Decision d = EpochPolicy.decide(cpu(8, 2176, 14 << 10, false));
    assertEquals(3, d.applied());
    assertEquals(3, d.ring().slots());
    assertEquals(Reason.CAPACITY, d.depth().reason());
  }

  @Test
  void aRingThatFitsNoBatchIsSynchronous() {
    EpochPolicy.Decision d = EpochPolicy.decide(cpu(8, 2176, 1 << 10, false));
    assertEquals(0, d.applied());
    assertEquals(Reason.SYNC_FALLBACK, d.depth().reason());
  }

  @Test
  void aFailedProbeDeclinesTheFloor() {
    EpochPolicy.Decision d = EpochPolicy.decide(
        gpu(4, KIB16, false, VramReading.failure("nvml", "no driver"), false));
    assertEquals(0, d.applied());
    assertEquals(Reason.PROBE_FAILED, d.depth().reason());
  }

  /**
   * With role=stager the host ring takes the flow quarter of the split, as a sites-file prefetch
   * site does: 4 MiB of batches of 1 MiB is 4 slots, where the anchored share of 100 MiB at 0.5
   * would give the epoch's 64.
   */
  @Test
  void aStagersRingTakesTheFlowQuarterOfItsSplit() {
    long mib = 1L << 20;
    EpochPolicy.Inputs plain = cpu(0, mib, 100 * mib, true);
    assertEquals(50, EpochPolicy.decide(plain).applied(), "50 MiB of 1 MiB batches");
    EpochPolicy.Inputs stager = new EpochPolicy.Inputs(false, 0, mib, 64, true, null,
        OptionalLong.of(100 * mib), 0.5, 0.90, false, true, OptionalLong.of(4 * mib));
    EpochPolicy.Decision d = EpochPolicy.decide(stager);
    assertEquals(4, d.applied());
    assertEquals(4 * mib, d.ring().budgetBytes(), "the stream quarter is the ring's budget");
  }
}
