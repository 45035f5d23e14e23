package org.flodl.budget.policy;

import java.util.OptionalLong;

/**
 * flodl 0.7.0's memory-budget policy ({@code flodl/src/data/budget.rs}), ported with its numbers:
 * how every retention and flow tier is priced and bounded, host RAM and VRAM alike. Pure functions:
 * numbers in, a decision record out, each record carrying its inputs and a reason so the agent can
 * record why, not only what.
 *
 * <p>Sizes are non-negative {@code long}s standing in for Rust's {@code u64}; {@link
 * Long#MAX_VALUE} stands in for {@code u64::MAX}. The arithmetic saturates as the seed's does, so
 * no input, however large, yields a negative or wrapped budget or depth. A NaN knob is rejected
 * with an {@link IllegalArgumentException} naming the knob; other values outside (0, 1] keep the
 * seed's meaning (a share above 0.90 is ceilinged, a share at or below 0 buys nothing). Over 300
 * lines for one job, the seed's functions side by side as {@code budget.rs} has them, so that the
 * port can be read against it.
 */
public final class BudgetPolicy {
  private BudgetPolicy() {}

  /**
   * Hard ceiling on any host-RAM share, whatever the knob says: the host runs the OS, the source
   * readers, and everything else too.
   */
  public static final double RAM_SHARE_CEILING = 0.90;

  /**
   * Reader-ring size when host RAM cannot be measured or batches cannot be priced: safe anywhere,
   * still enough to pipeline reads against transfers.
   */
  public static final long RING_SLOTS_FALLBACK = 4;

  /**
   * Reader-ring ceiling while the sample cache is active: the ring's value (jitter absorption)
   * saturates after a handful of batches, while every byte the cache retains pays again on every
   * later epoch.
   */
  public static final long RING_SLOTS_WITH_CACHE = 8;

  /**
   * The smallest in-flight window that still overlaps data with compute: one batch under the
   * training step while the next is in transit. Below this the feed is synchronous.
   */
  public static final long DOUBLE_BUFFER = 2;

  /**
   * Physical VRAM headroom the double-buffer floor demands per byte it holds: at 256× a 16 KiB
   * batch pair asks for 8 MiB free.
   */
  public static final long FLOOR_FREE_RATIO = 256;

  /**
   * Backing-storage slack above which a view is materialized instead of retained: past twice its
   * logical size, a copy is cheaper than the pin.
   */
  public static final long VIEW_SLACK_FACTOR = 2;

  /** Lower and upper clamp of {@code vram_max_usage}. */
  public static final double VRAM_USAGE_MIN = 0.5;

  public static final double VRAM_USAGE_MAX = 0.99;

  // ---------------------------------------------------------------------------------------------
  // Host RAM
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the one host-RAM budget law, {@code min(ramMaxUsage, 0.90) × (available + held)}. Held
   * bytes are no longer available to the probe, so they are added back before the share is taken:
   * the cap stays anchored to the total the run started with.
   */
  public static long anchoredRamBudget(long available, long heldBytes, double ramMaxUsage) {
    return anchored(available, heldBytes, ramMaxUsage, 1.0, 0, "ram_max_usage").budgetBytes();
  }

  /**
   * Returns the sample-cache budget: the anchored share with the reader ring's bytes off the top
   * (the ring is a flow buffer and gets its fixed cut first).
   */
  public static long sampleCacheBudget(
      long available, long heldBytes, long ringBytes, double ramMaxUsage) {
    return sampleCacheBudgetDecision(available, heldBytes, ringBytes, ramMaxUsage).budgetBytes();
  }

  /** Returns {@link #sampleCacheBudget} as a record of its inputs. */
  public static RamBudget sampleCacheBudgetDecision(
      long available, long heldBytes, long ringBytes, double ramMaxUsage) {
    return anchored(available, heldBytes, ramMaxUsage, 1.0, ringBytes, "ram_max_usage");
  }

  /**
   * Returns a co-hosted rank's stager budget: its share of the host's anchored budget ({@code
   * budget_i ∝ rate_i}), anchored by what this rank already retains. A share above 1 is read as 1
   * and one at or below 0 as 0.
   */
  public static long stagerRamBudget(
      long available, long heldBytes, double ramMaxUsage, double hostShare) {
    return stagerRamBudgetDecision(available, heldBytes, ramMaxUsage, hostShare).budgetBytes();
  }

  /** Returns {@link #stagerRamBudget} as a record of its inputs. */
  public static RamBudget stagerRamBudgetDecision(
      long available, long heldBytes, double ramMaxUsage, double hostShare) {
    return anchored(available, heldBytes, ramMaxUsage, hostShare, 0, "ram_max_usage");
  }

  /** Returns the anchored budget of a tier whose knob is named {@code knob} (for messages). */
  public static RamBudget anchored(
      long available,
      long heldBytes,
      double maxUsage,
      double hostShare,
      long ringBytes,
      String knob) {
    Knobs.requireNumber(knob, maxUsage);
    Knobs.requireNumber("host_share", hostShare);
    double effective = Math.min(maxUsage, RAM_SHARE_CEILING);
    long total = Saturating.add(available, heldBytes);
    long anchored = Saturating.scale(total, effective);
    long budget = anchored;
    double share = Math.min(hostShare, 1.0);
    if (share != 1.0) {
      budget = Saturating.scale(anchored, share);
    }
    budget = Saturating.sub(budget, ringBytes);
    return new RamBudget(
        Saturating.unsigned(available),
        Saturating.unsigned(heldBytes),
        maxUsage,
        Math.max(effective, 0.0),
        Math.max(share, 0.0),
        Saturating.unsigned(ringBytes),
        budget);
  }

  /**
   * Splits a stager budget 3:1 between the pinned tier and the flow window; the remainder goes to
   * the pinned tier, nothing is lost.
   */
  public static StagerSplit splitStagerBudget(long total) {
    long t = Saturating.unsigned(total);
    long stream = t / 4;
    return new StagerSplit(t, t - stream, stream);
  }

  /**
   * Returns the reader-ring capacity in batches from the host-RAM budget, with the seed's meaning:
   * 0 when the reader stage is disabled ({@code ramMaxUsage <= 0}) or the budget cannot fit one
   * batch, the fallback of 4 when host RAM cannot be measured or the batch is unpriced, and never
   * more than the epoch's batches. No cache competes for the budget.
   */
  public static RingSlots ringSlotsFromRam(
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      OptionalLong available,
      long epochBatches) {
    return ringSlotsFromRam(perSampleBytes, batchSize, ramMaxUsage, available, epochBatches, false);
  }

  /**
   * Returns {@link #ringSlotsFromRam(long, long, double, OptionalLong, long)}, capped at {@link
   * #RING_SLOTS_WITH_CACHE} when {@code cacheActive}: the ring then leaves the rest of the budget
   * to the sample cache.
   */
  public static RingSlots ringSlotsFromRam(
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      OptionalLong available,
      long epochBatches,
      boolean cacheActive) {
    Knobs.requireNumber("ram_max_usage", ramMaxUsage);
    long epoch = Saturating.unsigned(epochBatches);
    long avail = available.isPresent() ? Saturating.unsigned(available.getAsLong()) : -1;
    if (ramMaxUsage <= 0.0) {
      return RingSlots.of(
          perSampleBytes,
          batchSize,
          ramMaxUsage,
          avail,
          epoch,
          cacheActive,
          0,
          0,
          RingSlots.Reason.DISABLED);
    }
    if (available.isEmpty()) {
      return RingSlots.fallback(
          perSampleBytes,
          batchSize,
          ramMaxUsage,
          avail,
          epoch,
          cacheActive,
          RingSlots.Reason.UNMEASURED_FALLBACK);
    }
    long batchBytes = Saturating.mul(perSampleBytes, batchSize);
    if (batchBytes == 0) {
      return RingSlots.fallback(
          perSampleBytes,
          batchSize,
          ramMaxUsage,
          avail,
          epoch,
          cacheActive,
          RingSlots.Reason.UNPRICED_BATCH);
    }
    long budget = anchoredRamBudget(avail, 0, ramMaxUsage);
    return ringSlotsFromBudget(
        perSampleBytes, batchSize, ramMaxUsage, avail, budget, epoch, cacheActive);
  }

  /**
   * Returns the ring slots a given byte budget buys: {@code budget / batch}, 0 when one batch does
   * not fit, capped at the epoch's batches and at {@link #RING_SLOTS_WITH_CACHE} when a cache is
   * active. {@link #ringSlotsFromRam} takes its budget from the anchored share; a stager's prefetch
   * takes the flow quarter of its split ({@link #splitStagerBudget}). An unpriced batch takes the
   * fallback of 4.
   */
  public static RingSlots ringSlotsFromBudget(
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      long availableBytes,
      long budgetBytes,
      long epochBatches,
      boolean cacheActive) {
    long epoch = Saturating.unsigned(epochBatches);
    long budget = Saturating.unsigned(budgetBytes);
    long batchBytes = Saturating.mul(perSampleBytes, batchSize);
    if (batchBytes == 0) {
      return RingSlots.fallback(
          perSampleBytes,
          batchSize,
          ramMaxUsage,
          availableBytes,
          epoch,
          cacheActive,
          RingSlots.Reason.UNPRICED_BATCH);
    }
    long slots = budget / batchBytes;
    RingSlots.Reason reason = slots == 0 ? RingSlots.Reason.NO_FIT : RingSlots.Reason.CAPACITY;
    if (slots > epoch) {
      slots = epoch;
      reason = RingSlots.Reason.EPOCH_CAP;
    }
    if (cacheActive && slots > RING_SLOTS_WITH_CACHE) {
      slots = RING_SLOTS_WITH_CACHE;
      reason = RingSlots.Reason.CACHE_CAP;
    }
    return RingSlots.of(
        perSampleBytes,
        batchSize,
        ramMaxUsage,
        availableBytes,
        epoch,
        cacheActive,
        budget,
        slots,
        reason);
  }

  // ---------------------------------------------------------------------------------------------
  // VRAM
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns the prefetch depth for one device: on a CPU the double buffer (no VRAM to budget, just
   * overlap), for an unpriced batch the double buffer (overlap, claim nothing), else {@link
   * #depthFromProbe} at the probe's numbers. A failed probe is {@code (Long.MAX_VALUE, 0)}.
   */
  public static PrefetchDepth prefetchDepthFromVram(
      long perSampleBytes,
      long batchSize,
      boolean cuda,
      long usedBytes,
      long totalBytes,
      double maxUsage,
      long activationReserve) {
    Knobs.requireNumber("vram_max_usage", maxUsage);
    long batchBytes = Saturating.mul(perSampleBytes, batchSize);
    if (!cuda) {
      return new PrefetchDepth(
          usedBytes,
          totalBytes,
          maxUsage,
          activationReserve,
          batchBytes,
          0,
          0,
          DOUBLE_BUFFER,
          PrefetchDepth.Reason.CPU_OVERLAP);
    }
    if (batchBytes == 0) {
      return new PrefetchDepth(
          usedBytes,
          totalBytes,
          maxUsage,
          activationReserve,
          0,
          0,
          0,
          DOUBLE_BUFFER,
          PrefetchDepth.Reason.UNPRICED_BATCH);
    }
    return depthFromProbe(usedBytes, totalBytes, maxUsage, activationReserve, batchBytes);
  }

  /**
   * The sizing policy at the numbers a probe reported: {@code cap = total × clamp(maxUsage, 0.5,
   * 0.99)}, the capacity depth {@code (cap − used − reserve) / batch}, and when that is 0 the
   * double-buffer floor, priced against physical free ({@code 2 × batch × 256 <= total − used}). A
   * failed probe ({@code used = MAX, total = 0}) saturates free to 0 and declines the floor.
   */
  public static PrefetchDepth depthFromProbe(
      long usedBytes, long totalBytes, double maxUsage, long activationReserve, long batchBytes) {
    Knobs.requireNumber("vram_max_usage", maxUsage);
    long used = Saturating.unsigned(usedBytes);
    long total = Saturating.unsigned(totalBytes);
    long reserve = Saturating.unsigned(activationReserve);
    long batch = Saturating.unsigned(batchBytes);
    long cap =
        Saturating.scale(total, Math.max(VRAM_USAGE_MIN, Math.min(maxUsage, VRAM_USAGE_MAX)));
    long budget = Saturating.sub(cap, Saturating.add(used, reserve));
    if (batch == 0) {
      // The seed's caller never gets here with an unpriced batch; keep its answer for one.
      return new PrefetchDepth(
          used,
          total,
          maxUsage,
          reserve,
          0,
          cap,
          budget,
          DOUBLE_BUFFER,
          PrefetchDepth.Reason.UNPRICED_BATCH);
    }
    long depth = budget / batch;
    if (depth > 0) {
      return new PrefetchDepth(
          used, total, maxUsage, reserve, batch, cap, budget, depth, PrefetchDepth.Reason.CAPACITY);
    }
    long free = Saturating.sub(total, used);
    long floorBytes = Saturating.mul(DOUBLE_BUFFER, batch);
    if (Saturating.mul(floorBytes, FLOOR_FREE_RATIO) <= free) {
      return new PrefetchDepth(
          used,
          total,
          maxUsage,
          reserve,
          batch,
          cap,
          budget,
          DOUBLE_BUFFER,
          PrefetchDepth.Reason.DOUBLE_BUFFER_FLOOR);
    }
    PrefetchDepth.Reason reason =
        (total == 0) ? PrefetchDepth.Reason.PROBE_FAILED : PrefetchDepth.Reason.SYNC_FALLBACK;
    return new PrefetchDepth(used, total, maxUsage, reserve, batch, cap, budget, 0, reason);
  }

  // ---------------------------------------------------------------------------------------------
  // Retention pricing
  // ---------------------------------------------------------------------------------------------

  /**
   * Returns what retaining one value of {@code logicalBytes} backed by {@code storageBytes} really
   * charges: its storage when that is within {@link #VIEW_SLACK_FACTOR} × logical (kept as-is,
   * charged the whole pin), else its logical bytes (it will be materialized).
   */
  public static long retainedCost(long logicalBytes, long storageBytes) {
    return shouldMaterialize(logicalBytes, storageBytes)
        ? Saturating.unsigned(logicalBytes)
        : Saturating.unsigned(storageBytes);
  }

  /** Returns whether a view of {@code logicalBytes} over {@code storageBytes} must be copied. */
  public static boolean shouldMaterialize(long logicalBytes, long storageBytes) {
    return Saturating.unsigned(storageBytes) > Saturating.mul(VIEW_SLACK_FACTOR, logicalBytes);
  }
}
