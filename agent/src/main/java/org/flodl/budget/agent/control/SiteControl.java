package org.flodl.budget.agent.control;

import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.flodl.budget.agent.gate.DecisionEvents;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.SiteTotals;
import org.flodl.budget.events.SiteSummaryEvent;

/**
 * A site's MBean: each read sums the site's per-thread counters as they stand (the deciding threads
 * take no lock for it), so the counters are those its {@code SiteSummary} events sum to.
 */
public final class SiteControl implements SiteControlMXBean {
  /** The domain and type of the site MBeans' names. */
  public static final String TYPE = "org.flodl.budget:type=Site";

  private final GateEngine engine;
  private final String site;
  private final boolean cache;

  SiteControl(GateEngine engine, String site, boolean cache) {
    this.engine = engine;
    this.site = site;
    this.cache = cache;
  }

  /** Returns the MBean's name: {@code org.flodl.budget:type=Site,name=SITE} (quoted if need be). */
  public static ObjectName name(String site) throws MalformedObjectNameException {
    boolean plain = !site.isEmpty();
    for (int i = 0; i < site.length() && plain; i++) {
      char c = site.charAt(i);
      plain =
          c != ',' && c != '=' && c != ':' && c != '"' && c != '*' && c != '?' && c != '\\'
              && c != '\n';
    }
    return new ObjectName(TYPE + ",name=" + (plain ? site : ObjectName.quote(site)));
  }

  private SiteTotals totals() {
    return cache ? engine.totals(site) : null;
  }

  private SiteSummaryEvent.Counts counts() {
    SiteTotals t = totals();
    return t == null ? SiteSummaryEvent.Counts.NONE : t.counts();
  }

  @Override
  public String getKind() {
    return cache ? "cache-admit" : "prefetch-depth";
  }

  @Override
  public String getTier() {
    SiteTotals t = totals();
    return t == null ? "" : t.tier().label();
  }

  @Override
  public long getAdmissions() {
    return counts().admissions();
  }

  @Override
  public long getAdmittedBytes() {
    return counts().admittedBytes();
  }

  @Override
  public long getDeclines() {
    return counts().declines();
  }

  @Override
  public long getDeclinedBytes() {
    return counts().declinedBytes();
  }

  @Override
  public long getWouldDeclines() {
    return counts().wouldDeclines();
  }

  @Override
  public long getMaterializations() {
    return counts().materialized();
  }

  @Override
  public long getMaterializedBytes() {
    return counts().materializedBytes();
  }

  @Override
  public long getAlreadyHeld() {
    return counts().alreadyHeld();
  }

  @Override
  public long getUnpriced() {
    return counts().unpriced();
  }

  @Override
  public long getReleases() {
    return counts().releases();
  }

  @Override
  public long getReleasedBytes() {
    return counts().releasedBytes();
  }

  @Override
  public long getCollected() {
    return counts().collected();
  }

  @Override
  public long getHeldBytes() {
    SiteTotals t = totals();
    return t == null ? 0 : t.heldBytes();
  }

  @Override
  public long getBudgetBytes() {
    SiteTotals t = totals();
    return t == null ? -1 : engine.budget(t.tier());
  }

  @Override
  public int getDepth() {
    DecisionEvents.LastDepth d = DecisionEvents.lastDepth(site);
    return d == null ? -1 : d.depth();
  }

  @Override
  public int getRequestedDepth() {
    DecisionEvents.LastDepth d = DecisionEvents.lastDepth(site);
    return d == null ? -1 : d.requested();
  }

  @Override
  public String getDepthReason() {
    DecisionEvents.LastDepth d = DecisionEvents.lastDepth(site);
    return d == null ? "" : d.reason();
  }
}
