package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.OptionalLong;
import org.flodl.budget.policy.PrefetchDepth.Reason;
import org.junit.jupiter.api.Test;

/**
 * The one depth decision at the seed's rig numbers and at the host ring's, as a DJL epoch and a
 * sites-file site take it; and the call site's floor of 1.
 */
class DepthDecisionTest {
  static final long PASCAL_USED = 5592L << 20;
  static final long PASCAL_TOTAL = 6_360_465_408L;

  /** A GPU's probe reading as the decision takes it (the probes module reads real ones). */
  record Vram(long usedBytes, long totalBytes) {
    /** A failed probe, by the seed's convention: used at its maximum, total 0. */
    static final Vram FAILED = new Vram(Long.MAX_VALUE, 0);
  }

  static final Vram PASCAL = new Vram(PASCAL_USED, PASCAL_TOTAL);
  static final long KIB16 = 16 << 10;

  /** A DJL epoch on a GPU: the first holds back the headroom. */
  static DepthDecision.Inputs gpu(int requested, long batch, boolean first, Vram v, boolean auto) {
    return DepthDecision.Inputs.builder()
        .cuda(true)
        .requested(requested)
        .batchBytes(batch)
        .epochBatches(1000)
        .vramUsed(v.usedBytes())
        .vramTotal(v.totalBytes())
        .vramMaxUsage(0.90)
        .activationReserve(
            DepthDecision.firstEpochReserve(first, batch, v.usedBytes(), v.totalBytes(), 0.90))
        .maxUsage(0.5)
        .prefetchAuto(auto)
        .build();
  }

  static DepthDecision.Inputs cpu(int requested, long batch, long available, boolean auto) {
    OptionalLong a = available < 0 ? OptionalLong.empty() : OptionalLong.of(available);
    return host(requested, batch, 64, a, auto).build();
  }

  /** A host decision's inputs with no VRAM reading (a failed probe), at ram_max_usage 0.5. */
  static DepthDecision.Inputs.Builder host(
      int requested, long batch, long epochBatches, OptionalLong available, boolean auto) {
    return DepthDecision.Inputs.builder()
        .requested(requested)
        .batchBytes(batch)
        .epochBatches(epochBatches)
        .vramUsed(Vram.FAILED.usedBytes())
        .vramTotal(Vram.FAILED.totalBytes())
        .vramMaxUsage(0.90)
        .available(available)
        .maxUsage(0.5)
        .prefetchAuto(auto);
  }

  @Test
  void aModelAboveTheCapKeepsTheDoubleBufferInEveryEpoch() {
    for (boolean first : new boolean[] {true, false}) {
      DepthDecision.Decision d = DepthDecision.decide(gpu(4, KIB16, first, PASCAL, false));
      assertEquals(2, d.applied());
      assertEquals(Reason.DOUBLE_BUFFER_FLOOR, d.vram().reason());
      assertEquals(KIB16, d.vram().batchBytes());
      assertNull(d.ring());
    }
  }

  @Test
  void theFirstEpochHoldsBackTheHeadroomLaterOnesReserveNothing() {
    Vram roomy = new Vram(3L << 30, PASCAL_TOTAL);
    DepthDecision.Decision first = DepthDecision.decide(gpu(1_000_000, KIB16, true, roomy, true));
    DepthDecision.Decision second = DepthDecision.decide(gpu(1_000_000, KIB16, false, roomy, true));
    assertEquals(
        DepthDecision.headroom(3L << 30, PASCAL_TOTAL, 0.90), first.vram().activationReserve());
    assertEquals(2, first.applied());
    assertEquals(Reason.DOUBLE_BUFFER_FLOOR, first.vram().reason());
    assertEquals(0, second.vram().activationReserve());
    assertEquals(Reason.CAPACITY, second.vram().reason());
    assertEquals(1000, second.applied(), "auto caps the capacity depth at the epoch's batches");
  }

  @Test
  void capKeepsALowerRequest() {
    DepthDecision.Decision d = DepthDecision.decide(gpu(1, KIB16, false, PASCAL, false));
    assertEquals(1, d.applied());
    assertEquals(Reason.REQUESTED, d.vram().reason());
  }

  @Test
  void anUnpricedBatchIsTheDoubleBufferOnAGpuAndFourOnTheHostEachCapped() {
    assertEquals(
        Reason.UNPRICED_BATCH,
        DepthDecision.decide(gpu(8, 0, true, PASCAL, false)).vram().reason());
    assertEquals(2, DepthDecision.decide(gpu(8, 0, true, PASCAL, false)).applied());
    assertEquals(4, DepthDecision.decide(cpu(8, 0, 1L << 30, false)).applied());
    assertEquals("UNPRICED_BATCH", DepthDecision.decide(cpu(8, 0, 1L << 30, false)).reason());
    assertEquals(1, DepthDecision.decide(gpu(1, 0, true, PASCAL, false)).applied());
  }

  @Test
  void theHostRingFitsThreeBatchesOfARequestOfEight() {
    DepthDecision.Decision d = DepthDecision.decide(cpu(8, 2176, 14 << 10, false));
    assertEquals(3, d.applied());
    assertEquals(3, d.ring().slots());
    assertEquals("CAPACITY", d.reason());
    assertNull(d.vram(), "a host decision reads no VRAM");
    assertEquals(14 << 10, d.ring().availableBytes());
    assertEquals(2176, d.batchBytes());
  }

  @Test
  void aRingThatFitsNoBatchIsSynchronous() {
    DepthDecision.Decision d = DepthDecision.decide(cpu(8, 2176, 1 << 10, false));
    assertEquals(0, d.applied());
    assertEquals("NO_FIT", d.reason(), "the ring's own reason");
  }

  @Test
  void unmeasuredHostRamIsTheRingsFallbackNotAFailedVramProbe() {
    DepthDecision.Decision d = DepthDecision.decide(cpu(8, 2176, -1, false));
    assertEquals(4, d.applied());
    assertEquals("UNMEASURED_FALLBACK", d.reason());
    assertEquals(-1, d.ring().availableBytes());
  }

  @Test
  void aLowerRequestCapsTheHostRingAsRequested() {
    DepthDecision.Decision d = DepthDecision.decide(cpu(2, 2176, 14 << 10, false));
    assertEquals(2, d.applied());
    assertEquals(DepthDecision.REQUESTED, d.reason());
    assertEquals(3, d.ring().slots(), "the ring's own sizing stays in its record");
  }

  @Test
  void aFailedProbeDeclinesTheFloor() {
    DepthDecision.Decision d = DepthDecision.decide(gpu(4, KIB16, false, Vram.FAILED, false));
    assertEquals(0, d.applied());
    assertEquals(Reason.PROBE_FAILED, d.vram().reason());
  }

  /**
   * With role=stager the host ring takes the flow quarter of the split, as a sites-file prefetch
   * site does: 4 MiB of batches of 1 MiB is 4 slots, where the anchored share of 100 MiB at 0.5
   * would give the epoch's 64.
   */
  @Test
  void aStagersRingTakesTheFlowQuarterOfItsSplit() {
    long mib = 1L << 20;
    DepthDecision.Inputs plain = cpu(0, mib, 100 * mib, true);
    assertEquals(50, DepthDecision.decide(plain).applied(), "50 MiB of 1 MiB batches");
    DepthDecision.Inputs stager =
        host(0, mib, 64, OptionalLong.of(100 * mib), true)
            .stagerStreamBytes(OptionalLong.of(4 * mib))
            .build();
    DepthDecision.Decision d = DepthDecision.decide(stager);
    assertEquals(4, d.applied());
    assertEquals(4 * mib, d.ring().budgetBytes(), "the stream quarter is the ring's budget");
  }

  @Test
  void aCallSiteNeverGetsADepthBelowOneWhenItAskedForOne() {
    DepthDecision.Inputs tight =
        host(8, 2176, 0, OptionalLong.of(1 << 10), false).atLeastOne(true).build();
    DepthDecision.Decision d = DepthDecision.decide(tight);
    assertEquals("NO_FIT", d.reason(), "the policy says 0");
    assertEquals(0, d.depth());
    assertEquals(1, d.applied(), "a JDK queue gets 1");
  }

  @Test
  void anUnknownEpochDoesNotCapTheRing() {
    long mib = 1L << 20;
    DepthDecision.Inputs unknown = host(0, mib, 0, OptionalLong.of(100 * mib), true).build();
    assertEquals(50, DepthDecision.decide(unknown).applied());
  }

  @Test
  void aBuilderLeftUntoldKnowsNothing() {
    // What a builder is not told is unknown or off: a failed VRAM probe, no host reading, no
    // stager split, no epoch length, no request.
    DepthDecision.Inputs in = DepthDecision.Inputs.builder().build();
    assertEquals(Vram.FAILED, new Vram(in.vramUsed(), in.vramTotal()));
    assertEquals(OptionalLong.empty(), in.available());
    assertEquals(OptionalLong.empty(), in.stagerStreamBytes());
    assertEquals(0, in.epochBatches());
    assertEquals(0, in.requested());
    assertEquals(0, in.batchBytes());
    assertFalse(in.cuda() || in.cacheActive() || in.prefetchAuto() || in.atLeastOne());
  }
}
