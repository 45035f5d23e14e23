package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Admitted bytes handed back to a tier, exactly once per admission: by a release site that saw
 * the value, or because the value was garbage collected. As frequent as admissions, so it records
 * no stack trace.
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
  @Description("Why: RELEASE_SITE (a release site saw the value) or COLLECTED (the value was garbage collected)")
  String cause;

  @Label("Held")
  @Description("Bytes the tier holds after the release")
  @DataAmount
  long heldBytes;

  /** Commits one release event when the event is enabled; a disabled event costs a branch. */
  public static void emit(String site, String tier, long bytes, String cause, long heldBytes) {
    ReleaseEvent event = new ReleaseEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.tier = tier;
      event.bytes = bytes;
      event.cause = cause;
      event.heldBytes = heldBytes;
      event.commit();
    }
  }
}
