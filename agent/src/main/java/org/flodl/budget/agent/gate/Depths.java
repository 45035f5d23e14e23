package org.flodl.budget.agent.gate;

import java.util.OptionalLong;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.HeapFootprint;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.probes.VramReading;

/**
 * The answers at a prefetch-depth site's points, for {@link GateEngine}: a depth sizes the host
 * ring or the VRAM depth from the last probe and the last batch price, commits its events and, on
 * the host, books the ring it builds ({@code observe} builds what was requested); a batch point
 * prices the batches the depth is sized by. A site with a framework adapter decides the adapter's
 * way. Static, on the engine's own fields, as the admissions are.
 */
final class Depths {
  private Depths() {}

  /** Returns the depth to use at {@code site} for a call that requested {@code requested}. */
  static int depth(GateEngine e, DepthSite site, int requested, Object[] arguments) {
    GateThread t = GateThread.current();
    if (t.inGate) {
      return requested;
    }
    t.inGate = true;
    try {
      if (site.adapter() != null) {
        return site.adapter().depth(new AdapterContext(e), requested, arguments);
      }
      return decide(e, site, requested);
    } finally {
      t.inGate = false;
    }
  }

  private static int decide(GateEngine e, DepthSite site, int requested) {
    e.start(); // the probe thread and the periodic events, at the first decision
    if (!site.cuda()) {
      e.budgets.ensureRefreshed(); // a GPU depth needs its VRAM reading alone (Budgets#vram)
    }
    DepthDecision.Decision d = DepthDecision.decide(inputs(e, site, requested));
    DecisionEvents.depth(site.name(), site.device(), requested, d);
    int built = e.mode() == Mode.OBSERVE ? requested : d.applied();
    long batch = site.batchBytes();
    if (!site.cuda() && batch > 0) {
      e.budgets.ring(site.name(), site.batchTier(), Saturating.mul(built, batch));
    }
    return built;
  }

  /**
   * Returns the policy's inputs at a sites-file depth site: its device's VRAM reading and its
   * activation reserve (the first decision's only), or the memory its batches live in (the heap for
   * heap batches, host RAM otherwise, the stager's flow quarter when this JVM splits); no epoch
   * length is known here.
   */
  static DepthDecision.Inputs inputs(GateEngine e, DepthSite site, int requested) {
    Budgets budgets = e.budgets;
    long batch = site.batchBytes();
    if (site.cuda()) {
      VramReading v = budgets.vram(site.deviceIndex());
      return DepthDecision.Inputs.builder()
          .cuda(true)
          .requested(requested)
          .batchBytes(batch)
          .vramUsed(v == null ? Long.MAX_VALUE : v.usedBytes())
          .vramTotal(v == null ? 0 : v.totalBytes())
          .vramMaxUsage(budgets.knobs.get(Knob.VRAM_MAX_USAGE))
          .activationReserve(site.takeActivationReserve())
          .maxUsage(budgets.knobs.get(Knob.RAM_MAX_USAGE))
          .cacheActive(e.cacheActive())
          .prefetchAuto(e.prefetchAuto())
          .atLeastOne(site.callSite())
          .build();
    }
    // The ring holds batches where they live: heap batches are sized from the heap (what the
    // last probe left available, after the caches), others from host RAM.
    boolean heap = site.batchTier() == Tier.HEAP;
    OptionalLong available;
    if (heap || site.batchTier() == Tier.NATIVE) {
      // native batches (ND4J's) are bounded by JavaCPP's limits too, where it is loaded
      long a = budgets.available(site.batchTier());
      available = a < 0 ? OptionalLong.empty() : OptionalLong.of(a);
    } else {
      available = budgets.hostAvailable();
    }
    return DepthDecision.Inputs.builder()
        .requested(requested)
        .batchBytes(batch)
        .vramMaxUsage(budgets.knobs.get(Knob.VRAM_MAX_USAGE))
        .available(available)
        .maxUsage(
            heap ? budgets.knobs.get(Knob.HEAP_MAX_USAGE) : budgets.knobs.get(Knob.RAM_MAX_USAGE))
        .cacheActive(e.cacheActive())
        .prefetchAuto(e.prefetchAuto())
        .stagerStreamBytes(
            budgets.stager() && !heap
                ? OptionalLong.of(budgets.streamBytes())
                : OptionalLong.empty())
        .atLeastOne(site.callSite())
        .build();
  }

  /** Prices {@code batch}, returned on {@code receiver}, for {@code site}'s next depth. */
  static void batch(GateEngine e, DepthSite site, Object receiver, Object batch) {
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      if (site.adapter() != null) {
        site.adapter().batch(new AdapterContext(e), receiver, batch);
        return;
      }
      e.consumed(t);
      Priced p = e.pricer().estimate(batch, t.prices);
      long bytes =
          site.cuda()
              ? p.logicalBytes()
              : p.tier() == Tier.HEAP
                  ? HeapFootprint.ofThisHeap(batch, p.chargedBytes())
                  : p.chargedBytes();
      site.batchPriced(bytes, p.tier());
    } finally {
      t.inGate = false;
    }
  }
}
