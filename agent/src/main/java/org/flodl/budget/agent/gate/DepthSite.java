package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.policy.Tier;

/**
 * A prefetch-depth site at run time: its name, its device ({@code cpu} or {@code cuda:N}), a fixed
 * batch price when the sites file gives one, and the price of the last batch its batch site saw (0
 * until one has passed: the decision is then {@code UNPRICED_BATCH}).
 */
final class DepthSite {
  private final String name;
  private final String device;
  private final int deviceIndex;
  private final long fixedBatchBytes;
  private final DepthAdapter adapter;
  private final java.util.concurrent.atomic.AtomicLong activationReserve;
  private final boolean callSite;
  private volatile long lastBatchBytes;
  private volatile Tier batchTier = Tier.NATIVE;

  DepthSite(
      String name,
      String device,
      int deviceIndex,
      long fixedBatchBytes,
      long activationReserve,
      boolean callSite,
      DepthAdapter adapter) {
    this.callSite = callSite;
    this.activationReserve =
        new java.util.concurrent.atomic.AtomicLong(Math.max(0, activationReserve));
    this.name = name;
    this.device = device;
    this.deviceIndex = deviceIndex;
    this.fixedBatchBytes = Math.max(0, fixedBatchBytes);
    this.adapter = adapter;
  }

  /** Returns whether the site is a call site (a JDK queue's capacity: never below 1). */
  boolean callSite() {
    return callSite;
  }

  /** Returns the framework adapter that decides for this site, or null. */
  DepthAdapter adapter() {
    return adapter;
  }

  String name() {
    return name;
  }

  String device() {
    return device;
  }

  boolean cuda() {
    return deviceIndex >= 0;
  }

  int deviceIndex() {
    return deviceIndex;
  }

  /**
   * Returns the VRAM to keep free for activations at this decision: the {@code activation_reserve}
   * at the site's first decision, 0 after (then the probe's used bytes hold the activations
   * already).
   */
  long takeActivationReserve() {
    return activationReserve.getAndSet(0);
  }

  /** Returns the batch price the next decision uses, 0 when none is known yet. */
  long batchBytes() {
    return fixedBatchBytes > 0 ? fixedBatchBytes : lastBatchBytes;
  }

  /** Records the price and the tier of a batch that passed the batch site. */
  void batchPriced(long bytes, Tier tier) {
    if (bytes > 0) {
      lastBatchBytes = bytes;
      if (batchTier != tier) {
        batchTier = tier;
      }
    }
  }

  /**
   * Returns the tier the batches live in, {@code native} (host RAM) until one was priced: a ring of
   * heap batches is sized from the heap, not from host RAM.
   */
  Tier batchTier() {
    return batchTier;
  }
}
