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
 * Admitted bytes handed back to a tier, exactly once per admission: by a release site that saw the
 * value, or because the value was garbage collected. As frequent as admissions, so it records no
 * stack trace, and the agent samples it per site and cause to the {@code throttle} setting ({@link
 * DecisionThrottle}); {@code decisions} says how many releases an event stands for.
 */
@Name(ReleaseEvent.NAME)
@Label("Release")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("Admitted bytes handed back to a tier's budget")
@StackTrace(false)
public final class ReleaseEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.Release";

  @Label("Site")
  @Description("The call site that admitted the bytes")
  String site;

  @Label("Tier")
  @Description("The memory tier: heap, direct, native, mapped or device")
  String tier;

  @Label("Released")
  @Description("Bytes handed back")
  @DataAmount
  long bytes;

  @Label("Cause")
  @Description(
      "Why: RELEASE_SITE (a release site saw the value), COLLECTED (the value was garbage collected) or CALL_THREW (the call that admitted it threw: nothing was stored)")
  String cause;

  @Label("Held")
  @Description("Bytes the tier holds after the release")
  @DataAmount
  long heldBytes;

  @Label("Decisions")
  @Description(
      "How many releases of this site and cause the event stands for: itself and those "
          + "the throttle did not record since the site's previous event of the cause")
  long decisions;

  /**
   * The {@code throttle} setting of this event. Its rate lives in this class, initialized before
   * any control is made, not in the event's: held there, the controls Flight Recorder made and set
   * found it unset (the setting off of a recording was never seen by the agent).
   */
  public static final class Throttle extends DecisionThrottle {
    /** The throttle the recordings ask for, events a second per site and cause. */
    public static final Rate RATE = new Rate();

    public Throttle() {
      super(RATE);
    }
  }

  /** The throttle setting: the agent samples its releases to it (see {@link DecisionThrottle}). */
  @Name("throttle")
  @Label("Throttle")
  @Description(
      "Events a second per site and cause (N/s), or off for every release; "
          + "each event's decisions field says how many it stands for")
  @SettingDefinition
  protected boolean throttle(Throttle setting) {
    return true;
  }

  /** Commits one release event standing for itself only. */
  public static void emit(String site, String tier, long bytes, String cause, long heldBytes) {
    emit(site, tier, bytes, cause, heldBytes, 1);
  }

  /**
   * Commits one release event standing for {@code decisions} releases of its site and cause, when
   * the event is enabled (a disabled event costs a branch); returns whether it did.
   */
  public static boolean emit(
      String site, String tier, long bytes, String cause, long heldBytes, long decisions) {
    ReleaseEvent event = new ReleaseEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.tier = tier;
      event.bytes = bytes;
      event.cause = cause;
      event.heldBytes = heldBytes;
      event.decisions = decisions;
      event.commit();
      return true;
    }
    return false;
  }
}
