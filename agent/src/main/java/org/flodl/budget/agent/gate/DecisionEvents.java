package org.flodl.budget.agent.gate;

import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.events.StagerSplitEvent;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.RingSlots;
import org.flodl.budget.policy.StagerSplit;
import org.flodl.budget.policy.Tier;

/**
 * Turns the policy's decision records into their events, one method per kind of record, the same
 * wherever the decision was taken. A depth decision (a sites-file site, DJL, ND4J): on the host the
 * ring's {@code RingSlots} (its inputs: available bytes, knob, budget, slots) and a {@code
 * PrefetchDepth} with the ring's reason and no VRAM reading (used and total -1); on a GPU the
 * {@code PrefetchDepth} of the VRAM decision. A tier's budget: {@code RamBudget}; a stager's split:
 * {@code StagerSplit}. A cache admission's event is filled from the price and ledger its site
 * samples ({@link CacheSite.Sample}, made only when an event is due: the hot path allocates none)
 * and committed by its caller, standing for its weight.
 */
public final class DecisionEvents {
  private DecisionEvents() {}

  /** Commits the {@code RamBudget} of {@code tier}. */
  public static void budget(Tier tier, RamBudget b) {
    RamBudgetEvent.emit(
        tier.label(),
        b.availableBytes(),
        b.heldBytes(),
        b.maxUsage(),
        b.hostShare(),
        b.ringBytes(),
        b.budgetBytes());
  }

  /** Commits a stager's split. */
  public static void split(StagerSplit s) {
    StagerSplitEvent.emit(s.totalBytes(), s.pinnedBytes(), s.streamBytes());
  }

  /**
   * Returns the {@code CacheAdmission} event of a {@code kind} decision at {@code site} on {@code
   * tier}, priced and booked as {@code s}, standing for itself until told otherwise; uncommitted.
   */
  static CacheAdmissionEvent admission(CacheSite site, Tier tier, int kind, CacheSite.Sample s) {
    return CacheAdmissionEvent.decided()
        .site(site.name())
        .tier(Labels.of(tier))
        .decision(CacheSite.NAMES[kind])
        .valueType(s.valueType())
        .logicalBytes(s.logicalBytes())
        .storageBytes(s.storageBytes())
        .chargedBytes(s.chargedBytes())
        .materialized(s.materialized())
        .estimated(s.estimated())
        .heldBytes(s.held())
        .budgetBytes(s.budget())
        .availableBytes(s.available());
  }

  /** A prefetch site's last depth decision, as its MBean shows it. */
  public record LastDepth(String device, int requested, int depth, String reason) {}

  private static final java.util.concurrent.ConcurrentHashMap<String, LastDepth> DEPTHS =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** Returns {@code site}'s last depth decision, or null before its first. */
  public static LastDepth lastDepth(String site) {
    return DEPTHS.get(site);
  }

  /** Commits the events of depth decision {@code d}, taken at {@code site} on {@code device}. */
  public static void depth(String site, String device, int requested, DepthDecision.Decision d) {
    DEPTHS.put(site, new LastDepth(device, requested, d.applied(), String.valueOf(d.reason())));
    if (!Recorder.on()) {
      return;
    }
    RingSlots r = d.ring();
    if (r != null) {
      RingSlotsEvent.emit(
          site,
          r.perSampleBytes(),
          r.batchSize(),
          r.ramMaxUsage(),
          r.availableBytes(),
          r.epochBatches(),
          r.cacheActive(),
          r.budgetBytes(),
          r.slots(),
          r.reason().name());
      PrefetchDepthEvent.emit(
          site,
          device,
          -1,
          -1,
          r.ramMaxUsage(),
          0,
          d.batchBytes(),
          requested,
          d.applied(),
          d.reason());
      return;
    }
    PrefetchDepth v = d.vram();
    PrefetchDepthEvent.emit(
        site,
        device,
        v.usedBytes(),
        v.totalBytes(),
        v.maxUsage(),
        v.activationReserve(),
        v.batchBytes(),
        requested,
        d.applied(),
        d.reason());
  }
}
