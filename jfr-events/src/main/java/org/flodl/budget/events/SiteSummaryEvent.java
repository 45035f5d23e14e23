package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * One cache site's decisions since the last period (1 s by default): a recording that leaves the
 * per-decision {@link CacheAdmissionEvent} off still has every count and byte. The agent
 * registers an emitter with {@link #register} that calls {@link #emit} once per site.
 */
@Name(SiteSummaryEvent.NAME)
@Label("Site Summary")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("A cache site's admissions, declines and releases since the last period")
@Period("1 s")
@StackTrace(false)
public final class SiteSummaryEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.SiteSummary";

  private static final PeriodicHook HOOK = new PeriodicHook(SiteSummaryEvent.class);

  @Label("Site")
  @Description("The call site: the sites-file block name, or djl for the built-in DJL site")
  String site;

  @Label("Tier")
  @Description("The memory tier the site's values were last charged to")
  String tier;

  @Label("Admissions")
  @Description("Values admitted since the last period (ADMIT and ADMIT_MATERIALIZED)")
  long admissions;

  @Label("Declines")
  @Description("Values declined since the last period (DECLINE, and WOULD_DECLINE in observe mode)")
  long declines;

  @Label("Materialized")
  @Description("Admitted values that were copied out of an over-slack view since the last period")
  long materialized;

  @Label("Admitted Size")
  @Description("Bytes charged for admitted values since the last period")
  @DataAmount
  long admittedBytes;

  @Label("Declined Size")
  @Description("Bytes the declined values would have been charged since the last period")
  @DataAmount
  long declinedBytes;

  @Label("Materialized Size")
  @Description("Bytes charged for materialized copies since the last period (part of Admitted Size)")
  @DataAmount
  long materializedBytes;

  @Label("Released Size")
  @Description("Bytes handed back by the site's values since the last period")
  @DataAmount
  long releasedBytes;

  @Label("Estimated")
  @Description("Decisions since the last period whose price the pricer extrapolated past its bound")
  long estimated;

  @Label("Unpriced")
  @Description("Values since the last period the pricer could not price (declined, or "
      + "WOULD_DECLINE in observe mode): part of Declines")
  long unpriced;

  @Label("Held")
  @Description("Bytes the site's tier holds now")
  @DataAmount
  long heldBytes;

  @Label("Budget")
  @Description("The site's tier's budget now")
  @DataAmount
  long budgetBytes;

  /** Commits one site's summary when the event is enabled; a disabled event costs a branch. */
  public static void emit(
      String site,
      String tier,
      long admissions,
      long declines,
      long materialized,
      long admittedBytes,
      long declinedBytes,
      long materializedBytes,
      long releasedBytes,
      long estimated,
      long unpriced,
      long heldBytes,
      long budgetBytes) {
    SiteSummaryEvent event = new SiteSummaryEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.tier = tier;
      event.admissions = admissions;
      event.declines = declines;
      event.materialized = materialized;
      event.admittedBytes = admittedBytes;
      event.declinedBytes = declinedBytes;
      event.materializedBytes = materializedBytes;
      event.releasedBytes = releasedBytes;
      event.estimated = estimated;
      event.unpriced = unpriced;
      event.heldBytes = heldBytes;
      event.budgetBytes = budgetBytes;
      event.commit();
    }
  }

  /**
   * Returns true when {@code emitter} now runs each period (replacing an earlier one); it should
   * call {@link #emit} once for each site with the counts since its previous run.
   */
  public static boolean register(Runnable emitter) {
    return HOOK.register(emitter);
  }

  /** Returns true when an emitter was registered and has been removed. */
  public static boolean unregister() {
    return HOOK.unregister();
  }
}
