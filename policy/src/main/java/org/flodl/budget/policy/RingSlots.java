package org.flodl.budget.policy;

/**
 * A reader-ring sizing: how many batches the host-RAM budget buys, and why.
 *
 * @param perSampleBytes bytes of one sample (0 when unpriced)
 * @param batchSize samples per batch
 * @param ramMaxUsage the knob
 * @param availableBytes the probe's reading, or -1 when host RAM could not be measured
 * @param epochBatches batches in the epoch (the ring never exceeds it)
 * @param cacheActive whether a sample cache competes for the same budget (ring capped at 8)
 * @param budgetBytes the anchored budget the slots were priced against (0 when not computed)
 * @param slots the result
 * @param reason why
 */
public record RingSlots(
    long perSampleBytes,
    long batchSize,
    double ramMaxUsage,
    long availableBytes,
    long epochBatches,
    boolean cacheActive,
    long budgetBytes,
    long slots,
    Reason reason) {

  /** Why the ring has the size it has. */
  public enum Reason {
    /** {@code ram_max_usage <= 0}: the reader stage is off, single-stage pipeline. */
    DISABLED,
    /** Host RAM could not be measured: the fallback of 4. */
    UNMEASURED_FALLBACK,
    /** The batch could not be priced: the fallback of 4. */
    UNPRICED_BATCH,
    /** The budget divided by the batch bytes. */
    CAPACITY,
    /** The budget cannot fit one batch: 0, the single-stage pipeline. */
    NO_FIT,
    /** Capped at the epoch's batch count. */
    EPOCH_CAP,
    /** Capped at 8 because a sample cache shares the budget. */
    CACHE_CAP
  }

  /**
   * Returns the fallback ring: {@link BudgetPolicy#RING_SLOTS_FALLBACK} slots, or the epoch's
   * batches when fewer ({@link Reason#EPOCH_CAP}), for {@code reason}.
   */
  static RingSlots fallback(
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      long avail,
      long epoch,
      boolean cacheActive,
      Reason reason) {
    long slots = Math.min(BudgetPolicy.RING_SLOTS_FALLBACK, epoch);
    return of(
        perSampleBytes,
        batchSize,
        ramMaxUsage,
        avail,
        epoch,
        cacheActive,
        0,
        slots,
        slots < BudgetPolicy.RING_SLOTS_FALLBACK ? Reason.EPOCH_CAP : reason);
  }

  /** Returns a sizing of {@code slots}, the byte counts read unsigned (saturated). */
  static RingSlots of(
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      long avail,
      long epoch,
      boolean cacheActive,
      long budget,
      long slots,
      Reason reason) {
    return new RingSlots(
        Saturating.unsigned(perSampleBytes),
        Saturating.unsigned(batchSize),
        ramMaxUsage,
        avail,
        epoch,
        cacheActive,
        budget,
        slots,
        reason);
  }
}
