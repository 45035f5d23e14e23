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
 * The ledger of record: one cache site's decisions on one tier since the last period (1 s by
 * default, and at the end of every chunk, so a file's last second is in it). Its counts and bytes
 * are exact whatever the per-decision events' {@code throttle} let through: summed over a recording
 * they are what the application did. The agent registers an emitter with {@link #register} that
 * calls {@link #emit} once per site and tier that decided (a site that decided nothing in the
 * period still reports its last tier, with zeros).
 */
@Name(SiteSummaryEvent.NAME)
@Label("Site Summary")
@Category({Categories.ROOT, Categories.BUDGET})
@Description(
    "A cache site's admissions, declines and releases on one tier since the last period: "
        + "exact counts, whatever the per-decision events' throttle recorded")
@Period("1 s")
@StackTrace(false)
public final class SiteSummaryEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.SiteSummary";

  private static final PeriodicHook HOOK = new PeriodicHook(SiteSummaryEvent.class);

  /**
   * What a site decided on one tier in one period. {@code admissions} counts {@code ADMIT} and
   * {@code ADMIT_MATERIALIZED} (of them {@code materialized}); {@code declines} counts {@code
   * DECLINE} and {@code WOULD_DECLINE} (of them {@code wouldDeclines}, and {@code unpriced} values
   * of either); {@code releases} counts both causes (of them {@code collected}).
   */
  public record Counts(
      long admissions,
      long admittedBytes,
      long materialized,
      long materializedBytes,
      long declines,
      long declinedBytes,
      long wouldDeclines,
      long unpriced,
      long alreadyHeld,
      long estimated,
      long releases,
      long releasedBytes,
      long collected,
      long collectedBytes) {

    /** Nothing counted. */
    public static final Counts NONE = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    /** Returns whether nothing was counted. */
    public boolean isEmpty() {
      return admissions == 0
          && declines == 0
          && alreadyHeld == 0
          && releases == 0
          && releasedBytes == 0
          && estimated == 0;
    }
  }

  @Label("Site")
  @Description("The call site: the sites-file block name, or a preset's name")
  String site;

  @Label("Tier")
  @Description("The memory tier these counts are of: heap, direct, native, mapped or device")
  String tier;

  @Label("Admissions")
  @Description("Values admitted since the last period (ADMIT and ADMIT_MATERIALIZED)")
  long admissions;

  @Label("Declines")
  @Description("Values declined since the last period (DECLINE, and WOULD_DECLINE in observe mode)")
  long declines;

  @Label("Would Decline")
  @Description("Of the declines, those recorded as WOULD_DECLINE (observe mode kept them)")
  long wouldDeclines;

  @Label("Materialized")
  @Description("Admitted values that were copied out of an over-slack view since the last period")
  long materialized;

  @Label("Already Held")
  @Description("Values the cache was given again while held already: charged nothing more")
  long alreadyHeld;

  @Label("Admitted Size")
  @Description("Bytes charged for admitted values since the last period")
  @DataAmount
  long admittedBytes;

  @Label("Declined Size")
  @Description("Bytes the declined values would have been charged since the last period")
  @DataAmount
  long declinedBytes;

  @Label("Materialized Size")
  @Description(
      "Bytes charged for materialized copies since the last period (part of Admitted Size)")
  @DataAmount
  long materializedBytes;

  @Label("Releases")
  @Description(
      "Admitted values handed back since the last period: by a release site, collected, or their call threw")
  long releases;

  @Label("Released Size")
  @Description("Bytes handed back by the site's values since the last period")
  @DataAmount
  long releasedBytes;

  @Label("Collected")
  @Description("Of the releases, values handed back because they were garbage collected")
  long collected;

  @Label("Collected Size")
  @Description("Bytes of the collected releases (part of Released Size)")
  @DataAmount
  long collectedBytes;

  @Label("Estimated")
  @Description("Decisions since the last period whose price the pricer extrapolated past its bound")
  long estimated;

  @Label("Unpriced")
  @Description(
      "Values since the last period the pricer could not price (declined, or "
          + "WOULD_DECLINE in observe mode): part of Declines")
  long unpriced;

  @Label("Site Held")
  @Description("Bytes this site's values hold on the tier now")
  @DataAmount
  long siteHeldBytes;

  @Label("Held")
  @Description("Bytes the tier holds now, all sites together")
  @DataAmount
  long heldBytes;

  @Label("Budget")
  @Description("The tier's budget now")
  @DataAmount
  long budgetBytes;

  /**
   * Commits one site's counts on one tier when the event is enabled; a disabled event costs a
   * branch.
   */
  public static void emit(
      String site, String tier, Counts c, long siteHeldBytes, long heldBytes, long budgetBytes) {
    SiteSummaryEvent event = new SiteSummaryEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.tier = tier;
      event.admissions = c.admissions();
      event.admittedBytes = c.admittedBytes();
      event.materialized = c.materialized();
      event.materializedBytes = c.materializedBytes();
      event.declines = c.declines();
      event.declinedBytes = c.declinedBytes();
      event.wouldDeclines = c.wouldDeclines();
      event.unpriced = c.unpriced();
      event.alreadyHeld = c.alreadyHeld();
      event.estimated = c.estimated();
      event.releases = c.releases();
      event.releasedBytes = c.releasedBytes();
      event.collected = c.collected();
      event.collectedBytes = c.collectedBytes();
      event.siteHeldBytes = siteHeldBytes;
      event.heldBytes = heldBytes;
      event.budgetBytes = budgetBytes;
      event.commit();
    }
  }

  /**
   * Returns true when {@code emitter} now runs each period (replacing an earlier one); it should
   * call {@link #emit} once for each site and tier with the counts since its previous run.
   */
  public static boolean register(Runnable emitter) {
    return HOOK.register(emitter);
  }

  /** Returns true when an emitter was registered and has been removed. */
  public static boolean unregister() {
    return HOOK.unregister();
  }
}
