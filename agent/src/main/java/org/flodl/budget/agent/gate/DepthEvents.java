package org.flodl.budget.agent.gate;

import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RingSlots;

/**
 * Turns a depth decision record into its events, the same for every kind of depth site: the host
 * ring's {@code RingSlots} (when the decision sized one) and the {@code PrefetchDepth}.
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
    }
    PrefetchDepth p = d.depth();
    PrefetchDepthEvent.emit(site, device, p.usedBytes(), p.totalBytes(), p.maxUsage(),
        p.activationReserve(), p.batchBytes(), requested, d.applied(), p.reason().name());
  }
}
