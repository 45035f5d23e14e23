package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;

/**
 * One cache-admit decision: the value's price, what the cache was allowed to do with it, and where
 * the tier's ledger stood after it. As frequent as a cache's puts, so it records no stack trace,
 * and the agent samples it per site and decision to the {@code throttle} setting ({@link
 * DecisionThrottle}): each event carries in {@code decisions} how many decisions of its site and
 * kind it stands for (itself and those not committed since the last one), so their sum is every
 * decision. {@link SiteSummaryEvent} carries the exact counts and bytes either way.
 */
@Name(CacheAdmissionEvent.NAME)
@Label("Cache Admission")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("A cache asked to retain a value: its price and the budget's decision")
@StackTrace(false)
public final class CacheAdmissionEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.CacheAdmission";

  @Label("Site")
  @Description("The call site: the sites-file block name, or djl for the built-in DJL site")
  String site;

  @Label("Tier")
  @Description("The memory tier the value is charged to: heap, direct, native, mapped or device")
  String tier;

  @Label("Value Type")
  @Description("The class of the value the cache would retain")
  String valueType;

  @Label("Logical Size")
  @Description("Bytes the value exposes (its elements)")
  @DataAmount
  long logicalBytes;

  @Label("Storage Size")
  @Description("Bytes of the storage behind the value (a view can pin a larger buffer)")
  @DataAmount
  long storageBytes;

  @Label("Charged Size")
  @Description("Bytes reserved against the tier's budget for this value")
  @DataAmount
  long chargedBytes;

  @Label("Materialized")
  @Description("Whether an over-slack view was copied so the cache keeps only its own bytes")
  boolean materialized;

  @Label("Decision")
  @Description(
      "ADMIT, ADMIT_MATERIALIZED, DECLINE, WOULD_DECLINE (observe mode admitted it "
          + "anyway), or ALREADY_HELD (the same object is held already: charged nothing more)")
  String decision;

  @Label("Estimated")
  @Description(
      "The pricer's walk reached its bound (64 Ki objects or 1 ms) and extrapolated the "
          + "rest from what it walked")
  boolean estimated;

  @Label("Held")
  @Description("Bytes the tier holds after this decision")
  @DataAmount
  long heldBytes;

  @Label("Budget")
  @Description("The tier's budget the decision was taken against")
  @DataAmount
  long budgetBytes;

  @Label("Available")
  @Description("Bytes the tier's probe reported available, -1 when unknown")
  @DataAmount
  long availableBytes;

  @Label("Decisions")
  @Description(
      "How many decisions of this site and kind the event stands for: itself and those "
          + "the throttle did not record since the site's previous event of the kind")
  long decisions;

  /**
   * The {@code throttle} setting of this event. Its rate lives in this class, initialized before
   * any control is made, not in the event's: held there, the controls Flight Recorder made and set
   * found it unset (the setting off of a recording was never seen by the agent).
   */
  public static final class Throttle extends DecisionThrottle {
    /** The throttle the recordings ask for, events a second per site and decision kind. */
    public static final Rate RATE = new Rate();

    public Throttle() {
      super(RATE);
    }
  }

  /**
   * The throttle setting: the agent samples its decisions to it (see {@link DecisionThrottle}); the
   * setting itself lets every event it is asked to commit through.
   */
  @Name("throttle")
  @Label("Throttle")
  @Description(
      "Events a second per site and decision kind (N/s), or off for every "
          + "decision; each event's decisions field says how many it stands for")
  @SettingDefinition
  protected boolean throttle(Throttle setting) {
    return true;
  }

  /**
   * Returns a new admission event to fill in by name and {@link #emit}: it stands for itself only
   * ({@code decisions} 1) and the tier's available bytes are unknown (-1) until set.
   */
  public static CacheAdmissionEvent decided() {
    CacheAdmissionEvent event = new CacheAdmissionEvent();
    event.decisions = 1;
    event.availableBytes = -1;
    return event;
  }

  /** Returns this event at {@code site}: the sites-file block name, or djl. */
  public CacheAdmissionEvent site(String site) {
    this.site = site;
    return this;
  }

  /** Returns this event charged to {@code tier}, a tier label. */
  public CacheAdmissionEvent tier(String tier) {
    this.tier = tier;
    return this;
  }

  /** Returns this event with the class of the value the cache would retain. */
  public CacheAdmissionEvent valueType(String valueType) {
    this.valueType = valueType;
    return this;
  }

  /** Returns this event with the bytes the value exposes. */
  public CacheAdmissionEvent logicalBytes(long logicalBytes) {
    this.logicalBytes = logicalBytes;
    return this;
  }

  /** Returns this event with the bytes of the storage behind the value. */
  public CacheAdmissionEvent storageBytes(long storageBytes) {
    this.storageBytes = storageBytes;
    return this;
  }

  /** Returns this event with the bytes reserved against the tier's budget for the value. */
  public CacheAdmissionEvent chargedBytes(long chargedBytes) {
    this.chargedBytes = chargedBytes;
    return this;
  }

  /** Returns this event with whether the value was copied so the cache keeps only its bytes. */
  public CacheAdmissionEvent materialized(boolean materialized) {
    this.materialized = materialized;
    return this;
  }

  /** Returns this event with whether the pricer's walk reached its bound and extrapolated. */
  public CacheAdmissionEvent estimated(boolean estimated) {
    this.estimated = estimated;
    return this;
  }

  /** Returns this event with the decision, a {@link Decision} name. */
  public CacheAdmissionEvent decision(String decision) {
    this.decision = decision;
    return this;
  }

  /** Returns this event with the bytes the tier holds after the decision. */
  public CacheAdmissionEvent heldBytes(long heldBytes) {
    this.heldBytes = heldBytes;
    return this;
  }

  /** Returns this event with the tier's budget the decision was taken against. */
  public CacheAdmissionEvent budgetBytes(long budgetBytes) {
    this.budgetBytes = budgetBytes;
    return this;
  }

  /** Returns this event with the bytes the tier's probe reported available (-1: unknown). */
  public CacheAdmissionEvent availableBytes(long availableBytes) {
    this.availableBytes = availableBytes;
    return this;
  }

  /** Returns this event standing for {@code decisions} decisions of its site and kind. */
  public CacheAdmissionEvent decisions(long decisions) {
    this.decisions = decisions;
    return this;
  }

  /**
   * Commits this event when it is enabled (a disabled event costs a branch); returns whether it
   * did.
   */
  public boolean emit() {
    if (shouldCommit()) {
      commit();
      return true;
    }
    return false;
  }
}
