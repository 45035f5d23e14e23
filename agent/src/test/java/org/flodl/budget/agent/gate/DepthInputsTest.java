package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.OptionalLong;
import org.flodl.budget.agent.djl.DjlGate;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.VramReading;
import org.junit.jupiter.api.Test;

/**
 * A DJL epoch and a sites-file prefetch-depth site in the same JVM, with the same inputs (fixed
 * probes, the same batch price and request, no epoch length), take the same decision record: the
 * two paths differ only in what they know, not in the law they apply.
 */
class DepthInputsTest {
  private static GateEngine engine(String ram, String vram) {
    return new GateEngine(
        EngineSettings.builder()
            .mode(org.flodl.budget.agent.config.Mode.ENFORCE)
            .pricerFactory(() -> null)
            .probeFactory(() -> MemoryProbes.fromSpecs(ram, vram, Duration.ofSeconds(1), null))
            .probeInterval(Duration.ofSeconds(1))
            .ramMaxUsage(0.5)
            .heapMaxUsage(0.5)
            .vramMaxUsage(0.9)
            .hostShare(() -> 1.0)
            .build());
  }

  @Test
  void onTheHostBothPathsTakeTheSameRecord() {
    GateEngine e = engine("fixed:14K", "none");
    int id = e.bindDepth("feed", "cpu", -1, 2176, 0, false, null);
    DepthSite site = ((Point.Depth) e.point(id)).site();
    long available = new AdapterContext(e).refreshAtEpoch().host().availableBytes();
    DepthDecision.Inputs fromSites = Depths.inputs(e, site, 8);
    DepthDecision.Inputs fromDjl =
        DjlGate.inputs(
            false,
            8,
            2176,
            0,
            false,
            null,
            OptionalLong.of(available),
            e.knob(Knob.RAM_MAX_USAGE),
            e.knob(Knob.VRAM_MAX_USAGE),
            e.cacheActive(),
            false,
            new AdapterContext(e).stagerStreamBytes());
    assertEquals(fromSites, fromDjl);
    DepthDecision.Decision d = DepthDecision.decide(fromSites);
    assertEquals(d, DepthDecision.decide(fromDjl));
    assertEquals(3, d.applied(), "a 7 KiB ring of 2176-byte batches");
  }

  @Test
  void onAGpuBothPathsTakeTheSameRecordPastTheFirstEpoch() {
    GateEngine e = engine("fixed:1G", "fixed:3G/6360465408");
    int id = e.bindDepth("pref", "cuda:0", 0, 16384, 0, false, null);
    DepthSite site = ((Point.Depth) e.point(id)).site();
    new AdapterContext(e).refreshAtEpoch();
    VramReading v = new AdapterContext(e).vram(0);
    DepthDecision.Inputs fromSites = Depths.inputs(e, site, 8);
    DepthDecision.Inputs fromDjl =
        DjlGate.inputs(
            true,
            8,
            16384,
            0,
            false,
            v,
            OptionalLong.empty(),
            e.knob(Knob.RAM_MAX_USAGE),
            e.knob(Knob.VRAM_MAX_USAGE),
            e.cacheActive(),
            false,
            OptionalLong.empty());
    assertEquals(DepthDecision.decide(fromSites), DepthDecision.decide(fromDjl));
    assertEquals(8, DepthDecision.decide(fromSites).applied(), "room for the whole request");
  }
}
