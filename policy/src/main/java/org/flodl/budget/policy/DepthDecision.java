package org.flodl.budget.policy;

import java.util.OptionalLong;

/**
 * The one prefetch-depth decision, for every kind of depth site (a sites-file method or call site,
 * DJL's epochs, ND4J's async iterators): on a GPU the seed's VRAM depth with its double-buffer
 * floor; on the host the reader ring's slots from the memory the batches live in (host RAM, or the
 * heap for heap batches), from the flow quarter of the stager split when this JVM is a stager; then
 * capped by the request ({@code prefetch=cap}) or at the epoch's batches ({@code prefetch=auto}),
 * and, for a call site on a JDK queue, never below 1 when at least 1 was asked for. Numbers in, a
 * record out: no probe is read here.
 */
public final class DepthDecision {
  private DepthDecision() {}

  /**
   * What the policy needs to know at a depth decision.
   *
   * @param cuda whether the batches go to a GPU
   * @param requested the depth the code asked for
   * @param batchBytes one batch's price, 0 when none is known yet
   * @param epochBatches the epoch's batches, 0 or less when unknown
   * @param vramUsed the GPU's used bytes ({@link Long#MAX_VALUE} for a failed probe, the seed's
   *     convention)
   * @param vramTotal the GPU's total bytes (0 for a failed probe)
   * @param vramMaxUsage {@code vram_max_usage}
   * @param activationReserve VRAM held back for the model's activations (first epoch only)
   * @param available the bytes the host ring's tier has available, empty when unknown
   * @param maxUsage the knob of that tier ({@code ram_max_usage}, or {@code heap_max_usage} for
   *     heap batches)
   * @param cacheActive whether a cache site has admitted (the ring's fallback is 8 then, else 4)
   * @param prefetchAuto {@code prefetch=auto}: the policy's depth, capped at the epoch
   * @param stagerStreamBytes the stager split's flow quarter, empty when this JVM is no stager (or
   *     the batches are on the heap)
   * @param atLeastOne a call site: a JDK queue has no synchronous mode
   */
  public record Inputs(
      boolean cuda,
      int requested,
      long batchBytes,
      long epochBatches,
      long vramUsed,
      long vramTotal,
      double vramMaxUsage,
      long activationReserve,
      OptionalLong available,
      double maxUsage,
      boolean cacheActive,
      boolean prefetchAuto,
      OptionalLong stagerStreamBytes,
      boolean atLeastOne) {
    /**
     * Returns a builder that names each input; what it is not told is unknown or off: no epoch
     * length, no VRAM reading (used {@link Long#MAX_VALUE}, total 0), no host reading, no stager
     * split, knobs and prices 0.
     */
    public static Builder builder() {
      return new Builder();
    }

    /** The inputs of one decision, each set by its name (the record's components). */
    public static final class Builder {
      private boolean cuda;
      private int requested;
      private long batchBytes;
      private long epochBatches;
      private long vramUsed = Long.MAX_VALUE;
      private long vramTotal;
      private double vramMaxUsage;
      private long activationReserve;
      private OptionalLong available = OptionalLong.empty();
      private double maxUsage;
      private boolean cacheActive;
      private boolean prefetchAuto;
      private OptionalLong stagerStreamBytes = OptionalLong.empty();
      private boolean atLeastOne;

      private Builder() {}

      /** Returns this builder with whether the batches go to a GPU. */
      public Builder cuda(boolean cuda) {
        this.cuda = cuda;
        return this;
      }

      /** Returns this builder with the depth the code asked for. */
      public Builder requested(int requested) {
        this.requested = requested;
        return this;
      }

      /** Returns this builder with one batch's price (0 when none is known yet). */
      public Builder batchBytes(long batchBytes) {
        this.batchBytes = batchBytes;
        return this;
      }

      /** Returns this builder with the epoch's batches (0 or less when unknown). */
      public Builder epochBatches(long epochBatches) {
        this.epochBatches = epochBatches;
        return this;
      }

      /** Returns this builder with the GPU's used bytes ({@link Long#MAX_VALUE}: failed). */
      public Builder vramUsed(long vramUsed) {
        this.vramUsed = vramUsed;
        return this;
      }

      /** Returns this builder with the GPU's total bytes (0: failed). */
      public Builder vramTotal(long vramTotal) {
        this.vramTotal = vramTotal;
        return this;
      }

      /** Returns this builder with {@code vram_max_usage}. */
      public Builder vramMaxUsage(double vramMaxUsage) {
        this.vramMaxUsage = vramMaxUsage;
        return this;
      }

      /** Returns this builder with the VRAM held back for the model's activations. */
      public Builder activationReserve(long activationReserve) {
        this.activationReserve = activationReserve;
        return this;
      }

      /** Returns this builder with the bytes the ring's tier has available (empty: unknown). */
      public Builder available(OptionalLong available) {
        this.available = available;
        return this;
      }

      /** Returns this builder with the knob of the host ring's tier. */
      public Builder maxUsage(double maxUsage) {
        this.maxUsage = maxUsage;
        return this;
      }

      /** Returns this builder with whether a cache site has admitted. */
      public Builder cacheActive(boolean cacheActive) {
        this.cacheActive = cacheActive;
        return this;
      }

      /** Returns this builder with whether {@code prefetch=auto} applies. */
      public Builder prefetchAuto(boolean prefetchAuto) {
        this.prefetchAuto = prefetchAuto;
        return this;
      }

      /** Returns this builder with the stager split's flow quarter (empty: no stager). */
      public Builder stagerStreamBytes(OptionalLong stagerStreamBytes) {
        this.stagerStreamBytes = stagerStreamBytes;
        return this;
      }

      /** Returns this builder with whether this is a call site (a JDK queue: at least 1). */
      public Builder atLeastOne(boolean atLeastOne) {
        this.atLeastOne = atLeastOne;
        return this;
      }

      /** Returns the inputs as set. */
      public Inputs build() {
        return new Inputs(
            cuda,
            requested,
            batchBytes,
            epochBatches,
            vramUsed,
            vramTotal,
            vramMaxUsage,
            activationReserve,
            available,
            maxUsage,
            cacheActive,
            prefetchAuto,
            stagerStreamBytes,
            atLeastOne);
      }
    }
  }

  /** The reason a decision records when {@code prefetch=cap} kept a lower request. */
  public static final String REQUESTED = PrefetchDepth.Reason.REQUESTED.name();

  /**
   * One decision: on a GPU the seed's VRAM depth, on the host the reader ring's slots, each with
   * its own inputs and reasons (a host decision reads no VRAM and borrows none of its fields).
   *
   * @param vram the VRAM depth decision on a GPU (after the cap), null on the host
   * @param ring the host ring sizing behind a host decision, null on a GPU
   * @param batchBytes one batch's price, 0 when none is known yet
   * @param depth the decided depth, after the cap
   * @param reason why: a {@link PrefetchDepth.Reason} name on a GPU, a {@link RingSlots.Reason}
   *     name on the host, {@link #REQUESTED} on either when the request was lower
   * @param applied the depth to build, 0..{@link Integer#MAX_VALUE}
   */
  public record Decision(
      PrefetchDepth vram,
      RingSlots ring,
      long batchBytes,
      long depth,
      String reason,
      int applied) {}

  /** Returns the decision for {@code in}. */
  public static Decision decide(Inputs in) {
    long epoch = in.epochBatches() > 0 ? in.epochBatches() : Long.MAX_VALUE;
    long cap = in.prefetchAuto() ? -1 : Math.max(0, in.requested());
    PrefetchDepth vram = null;
    RingSlots ring = null;
    long depth;
    String reason;
    if (in.cuda()) {
      vram =
          BudgetPolicy.prefetchDepthFromVram(
              in.batchBytes(),
              1,
              true,
              in.vramUsed(),
              in.vramTotal(),
              in.vramMaxUsage(),
              in.activationReserve());
      if (in.prefetchAuto() && vram.depth() > epoch) {
        vram =
            new PrefetchDepth(
                vram.usedBytes(),
                vram.totalBytes(),
                vram.maxUsage(),
                vram.activationReserve(),
                vram.batchBytes(),
                vram.capBytes(),
                vram.budgetBytes(),
                epoch,
                vram.reason());
      }
      vram = vram.cappedAt(cap);
      depth = vram.depth();
      reason = vram.reason().name();
    } else {
      ring =
          in.stagerStreamBytes().isPresent() && in.available().isPresent()
              // A stager's prefetch takes the flow quarter of its split.
              ? BudgetPolicy.ringSlotsFromBudget(
                  in.batchBytes(),
                  1,
                  in.maxUsage(),
                  in.available().getAsLong(),
                  in.stagerStreamBytes().getAsLong(),
                  epoch,
                  in.cacheActive())
              : BudgetPolicy.ringSlotsFromRam(
                  in.batchBytes(), 1, in.maxUsage(), in.available(), epoch, in.cacheActive());
      depth = ring.slots();
      reason = ring.reason().name();
      if (cap >= 0 && cap < depth) {
        depth = cap;
        reason = REQUESTED;
      }
    }
    int applied = (int) Math.min(Integer.MAX_VALUE, Math.max(0, depth));
    if (in.atLeastOne() && in.requested() >= 1 && applied < 1) {
      applied = 1;
    }
    return new Decision(vram, ring, Math.max(0, in.batchBytes()), depth, reason, applied);
  }

  /**
   * Returns a first epoch's activation reserve: before the first step nothing is known of the
   * model's activations, so the first epoch on a GPU holds back the whole headroom under the cap
   * (only the floor can apply); from the second the reserve is 0, because the probe's {@code used}
   * then counts the activations (the seed's callers past their first step pass 0).
   */
  public static long firstEpochReserve(
      boolean firstEpoch, long batchBytes, long used, long total, double maxUsage) {
    return firstEpoch && batchBytes > 0 ? headroom(used, total, maxUsage) : 0;
  }

  /** Returns {@code cap − used}, saturated at 0: the bytes a first epoch holds back. */
  public static long headroom(long used, long total, double maxUsage) {
    // The seed's own cap, clamp and saturation: the capacity budget with nothing reserved.
    return BudgetPolicy.depthFromProbe(used, total, maxUsage, 0, 1).budgetBytes();
  }
}
