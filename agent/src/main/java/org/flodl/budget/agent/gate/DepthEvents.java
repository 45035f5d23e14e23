package org.flodl.budget.agent.gate;

import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RingSlots;

/**
 * Turns a depth decision record into its events, the same for every kind of depth site: on the
 * host the ring's {@code RingSlots} (its inputs: available bytes, knob, budget, slots) and a
 * {@code PrefetchDepth} with the ring's reason and no VRAM reading (used and total -1); on a GPU
 * the {@code PrefetchDepth} of the VRAM decision.
 */
public final class DepthEvents {
  private DepthEvents() {}

  /** Commits the events of {@code d}, taken at {@code site} on {@code device}. */
  public static void emit(String site, String device, int requested, DepthDecision.Decision d) {
    if (!Recorder.on()) {
      return;
    }
    RingSlots r = d.ring();
    if (r != null) {
      RingSlotsEvent.emit(site, r.perSampleBytes(), r.batchSize(), r.ramMaxUsage(),
          r.availableBytes(), r.epochBatches(), r.cacheActive(), r.budgetBytes(), r.slots(),
          r.reason().name());
      PrefetchDepthEvent.emit(site, device, -1, -1, r.ramMaxUsage(), 0, d.batchBytes(),
          requested, d.applied(), d.reason());
      return;
    }
    PrefetchDepth v = d.vram();
    PrefetchDepthEvent.emit(site, device, v.usedBytes(), v.totalBytes(), v.maxUsage(),
        v.activationReserve(), v.batchBytes(), requested, d.applied(), d.reason());
  }
}
