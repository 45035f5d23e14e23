package org.flodl.budget.agent.gate;

import java.util.OptionalLong;
import org.flodl.budget.agent.library.DepthContext;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * The engine as a framework's depth adapter sees it ({@link DepthContext}, the library SPI): each
 * question answered by the {@link GateEngine} it stands for, a decision said through {@link
 * DecisionEvents}, so that a library unit never names the engine's own class. Made at each call of
 * an adapter (a depth per epoch, a batch as it passes), not with the engine: a job without a
 * framework's prefetch never loads it.
 */
final class AdapterContext implements DepthContext {
  private final GateEngine engine;

  AdapterContext(GateEngine engine) {
    this.engine = engine;
  }

  @Override
  public double knob(Knob knob) {
    return engine.knob(knob);
  }

  @Override
  public boolean prefetchAuto() {
    return engine.prefetchAuto();
  }

  @Override
  public boolean observing() {
    return engine.observing();
  }

  @Override
  public boolean cacheActive() {
    return engine.cacheActive();
  }

  @Override
  public MemorySnapshot refreshAtEpoch() {
    engine.budgets.refresh();
    return engine.budgets.snapshot();
  }

  @Override
  public VramReading vram(int index) {
    VramReading v = engine.budgets.vram(index);
    return v == null ? VramReading.failure("none", "no reading") : v;
  }

  @Override
  public OptionalLong stagerStreamBytes() {
    Budgets budgets = engine.budgets;
    return budgets.stager() ? OptionalLong.of(budgets.streamBytes()) : OptionalLong.empty();
  }

  @Override
  public long logicalBytes(Object value) {
    return engine.logicalBytes(value);
  }

  @Override
  public void consumed() {
    engine.consumed();
  }

  @Override
  public void decided(String site, String device, int requested, DepthDecision.Decision d) {
    DecisionEvents.depth(site, device, requested, d);
  }
}
