package org.flodl.budget.agent.djl;

import java.util.OptionalLong;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RingSlots;
import org.flodl.budget.policy.probe.VramReading;

/**
 * Returns the prefetch depth of one DJL epoch from numbers alone (no DJL, no probe): on a GPU the
 * seed's VRAM depth with its double-buffer floor, on the host the reader ring's slots from host
 * RAM (from the flow quarter of the stager split when a {@code role = stager} site splits the
 * budget, as the sites-file prefetch sites do); either capped by the request under {@code
 * prefetch=cap}, or at the epoch's batches under {@code prefetch=auto}. Before the first step nothing is known of the model's activations, so the
 * first epoch on a GPU holds back the whole headroom under the cap as its activation reserve
 * (only the floor can apply); from the second epoch the reserve is 0, as the seed's callers past
 * their first step pass it, because the probe's {@code used} now counts the activations.
 */
final class EpochPolicy {
  private EpochPolicy() {}

  /**
   * One epoch's decision.
   *
   * @param depth the depth decision as the event records it (after the cap)
   * @param ring the host ring sizing behind it, null on a GPU
   */
  record Decision(PrefetchDepth depth, RingSlots ring) {
    /** Returns the depth to apply, 0..Integer.MAX_VALUE. */
    int applied() {
      return (int) Math.min(Integer.MAX_VALUE, Math.max(0, depth.depth()));
    }
  }

  /** What the policy needs to know at an epoch boundary. */
  record Inputs(
      boolean cuda,
      int requested,
      long batchBytes,
      long epochBatches,
      boolean firstEpoch,
      VramReading vram,
      OptionalLong hostAvailable,
      double ramMaxUsage,
      double vramMaxUsage,
      boolean cacheActive,
      boolean prefetchAuto,
      OptionalLong stagerStreamBytes) {}

  /** Returns the decision for {@code in}. */
  static Decision decide(Inputs in) {
    long epoch = in.epochBatches() > 0 ? in.epochBatches() : Long.MAX_VALUE;
    PrefetchDepth d;
    RingSlots ring = null;
    if (in.cuda()) {
      VramReading v = in.vram();
      long used = v == null || v.failed() ? Long.MAX_VALUE : v.usedBytes();
      long total = v == null || v.failed() ? 0 : v.totalBytes();
      long reserve = 0;
      if (in.firstEpoch() && in.batchBytes() > 0) {
        reserve = headroom(used, total, in.vramMaxUsage());
      }
      d = BudgetPolicy.prefetchDepthFromVram(in.batchBytes(), 1, true, used, total,
          in.vramMaxUsage(), reserve);
      if (in.prefetchAuto() && d.depth() > epoch) {
        d = new PrefetchDepth(d.usedBytes(), d.totalBytes(), d.maxUsage(), d.activationReserve(),
            d.batchBytes(), d.capBytes(), d.budgetBytes(), epoch, d.reason());
      }
    } else {
      ring = in.stagerStreamBytes().isPresent() && in.hostAvailable().isPresent()
          // A stager's prefetch takes the flow quarter of its split.
          ? BudgetPolicy.ringSlotsFromBudget(in.batchBytes(), 1, in.ramMaxUsage(),
              in.hostAvailable().getAsLong(), in.stagerStreamBytes().getAsLong(), epoch,
              in.cacheActive())
          : BudgetPolicy.ringSlotsFromRam(in.batchBytes(), 1, in.ramMaxUsage(),
              in.hostAvailable(), epoch, in.cacheActive());
      d = new PrefetchDepth(-1, ring.availableBytes(), ring.ramMaxUsage(), 0, in.batchBytes(), 0,
          ring.budgetBytes(), ring.slots(), ring.depthReason());
    }
    if (!in.prefetchAuto()) {
      d = d.cappedAt(Math.max(0, in.requested()));
    }
    return new Decision(d, ring);
  }

  /** Returns {@code cap − used}, saturated at 0: the bytes a first epoch holds back. */
  static long headroom(long used, long total, double maxUsage) {
    // The seed's own cap, clamp and saturation: the capacity budget with nothing reserved.
    return BudgetPolicy.depthFromProbe(used, total, maxUsage, 0, 1).budgetBytes();
  }
}
