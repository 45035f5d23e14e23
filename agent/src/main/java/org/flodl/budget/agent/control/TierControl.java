package org.flodl.budget.agent.control;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.policy.Tier;

/** A tier's MBean: each read is the tier's ledger as it stands (no lock taken). */
public final class TierControl implements TierControlMXBean {
  /** The domain and type of the tier MBeans' names. */
  public static final String TYPE = "org.flodl.budget:type=Tier";

  private final GateEngine engine;
  private final Tier tier;

  TierControl(GateEngine engine, Tier tier) {
    this.engine = engine;
    this.tier = tier;
  }

  /** Returns the MBean's name: {@code org.flodl.budget:type=Tier,name=TIER}. */
  public static ObjectName name(Tier tier) throws MalformedObjectNameException {
    return new ObjectName(TYPE + ",name=" + tier.label());
  }

  @Override
  public long getHeldBytes() {
    return engine.held(tier);
  }

  @Override
  public long getBudgetBytes() {
    return engine.budget(tier);
  }
}
