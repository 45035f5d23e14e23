package org.flodl.budget.policy;

/**
 * A VRAM prefetch-depth decision with the inputs it came from.
 *
 * @param usedBytes the probe's used bytes ({@link Long#MAX_VALUE} when it failed)
 * @param totalBytes the probe's total bytes (0 when it failed)
 * @param maxUsage the {@code vram_max_usage} knob as given
 * @param activationReserve bytes held back for activations (0 past the first step)
 * @param batchBytes bytes of one batch (0 when unpriced)
 * @param capBytes {@code total × clamp(maxUsage, 0.5, 0.99)}
 * @param budgetBytes {@code cap − (used + reserve)}, saturated at 0
 * @param depth the result, in batches
 * @param reason why
 */
public record PrefetchDepth(
    long usedBytes,
    long totalBytes,
    double maxUsage,
    long activationReserve,
    long batchBytes,
    long capBytes,
    long budgetBytes,
    long depth,
    Reason reason) {

  /**
   * Why the depth is what it is; the names are the ones the {@code PrefetchDepth} event records.
   */
  public enum Reason {
    /** The capacity budget divided by the batch bytes. */
    CAPACITY,
    /** The budget fits no batch, but two are negligible against physical free: 2. */
    DOUBLE_BUFFER_FLOOR,
    /** The budget fits no batch and two are not negligible: 0, the synchronous path. */
    SYNC_FALLBACK,
    /** The device is not a GPU: no VRAM to budget, overlap with the double buffer. */
    CPU_OVERLAP,
    /** The batch has no price yet: overlap with the double buffer, claim nothing. */
    UNPRICED_BATCH,
    /** The probe failed (used MAX, total 0): the floor is declined, 0. */
    PROBE_FAILED,
    /** {@code prefetch=cap} kept the application's request, which was lower. */
    REQUESTED
  }

  /** Returns this decision with its depth lowered to {@code requested} when that is lower. */
  public PrefetchDepth cappedAt(long requested) {
    if (requested < 0 || requested >= depth) {
      return this;
    }
    return new PrefetchDepth(
        usedBytes,
        totalBytes,
        maxUsage,
        activationReserve,
        batchBytes,
        capBytes,
        budgetBytes,
        requested,
        Reason.REQUESTED);
  }
}
