package org.flodl.budget.policy;

/**
 * The budget law of each tier, from the numbers a probe read: the seed's anchored share {@code
 * min(r, 0.90) × (available + anchor)}, times this rank's host share, less the reader rings that
 * live in the tier. The heap and the GPU take no host share (the heap is this JVM's own {@code
 * -Xmx}, a GPU its rank's own); host RAM is what co-hosted ranks divide. No ring comes off the
 * GPU's budget: a GPU's prefetch has a law of its own (the VRAM depth). A tier whose available
 * memory could not be measured gets a budget of 0: it admits nothing until it can.
 */
public final class TierBudget {
  private TierBudget() {}

  /** Returns the knob that bounds {@code tier}, by its argument name. */
  public static String knob(Tier tier) {
    switch (tier) {
      case HEAP:
        return "heap_max_usage";
      case DEVICE:
        return "vram_max_usage";
      default:
        return "ram_max_usage";
    }
  }

  /**
   * Returns {@code tier}'s budget.
   *
   * @param available the tier's available bytes, negative when they could not be measured
   * @param held what the tier holds now
   * @param anchor what to add back to {@code available} (the held bytes, or the heap's {@link
   *     HeapAnchor})
   * @param maxUsage the tier's {@link #knob}
   * @param hostShare this rank's share of the host, ignored by the heap and the GPU
   * @param ringBytes what reader rings of batches in this tier take off the top (ignored by the
   *     GPU)
   */
  public static RamBudget of(
      Tier tier,
      long available,
      long held,
      long anchor,
      double maxUsage,
      double hostShare,
      long ringBytes) {
    double share = tier == Tier.HEAP || tier == Tier.DEVICE ? 1.0 : hostShare;
    if (available < 0) {
      return new RamBudget(-1, Saturating.unsigned(held), maxUsage, 0, share, 0, 0);
    }
    return BudgetPolicy.anchored(
        available, anchor, maxUsage, share, tier == Tier.DEVICE ? 0 : ringBytes, knob(tier));
  }

  /**
   * A stager's tier budget: cut to the pinned three quarters of the seed's 3:1 split, with the
   * split itself (whose flow quarter is the prefetch's budget where the tier is host RAM).
   */
  public record Staged(RamBudget budget, StagerSplit split) {}

  /** Returns {@code b} cut to the pinned part of its stager split. */
  public static Staged staged(RamBudget b) {
    StagerSplit split = BudgetPolicy.splitStagerBudget(b.budgetBytes());
    return new Staged(
        new RamBudget(
            b.availableBytes(),
            b.heldBytes(),
            b.maxUsage(),
            b.effectiveUsage(),
            b.hostShare(),
            b.ringBytes(),
            split.pinnedBytes()),
        split);
  }
}
