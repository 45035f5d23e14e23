package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The container guard acted (or warned): a collection asked for, freed native memory handed back,
 * or a start-up setting that lets the container be killed. Usage is the memory cgroup's.
 */
@Name(ReclaimEvent.NAME)
@Label("Reclaim")
@Category({Categories.ROOT, Categories.BUDGET})
@Description(
    "The container guard's collections, malloc_trim calls and warnings, with the"
        + " container's usage before and after")
@StackTrace(false)
public final class ReclaimEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.Reclaim";

  @Label("Action")
  @Description(
      "GC (a collection asked for), MALLOC_TRIM (freed native memory handed back),"
          + " MAX_DIRECT_ABOVE_LIMIT (a warning at start), GC_DISABLED (a warning: no collection"
          + " can be asked for)")
  String action;

  @Label("Reason")
  @Description("Why, in one line")
  String reason;

  @Label("Limit")
  @Description("The container's memory limit")
  @DataAmount
  long limitBytes = -1;

  @Label("Usage Before")
  @Description("The container's usage (working set) before the action")
  @DataAmount
  long usageBeforeBytes = -1;

  @Label("Usage After")
  @Description("The container's usage (working set) after the action")
  @DataAmount
  long usageAfterBytes = -1;

  @Label("Direct Used Before")
  @Description("Direct buffers' bytes in use before the action")
  @DataAmount
  long directUsedBeforeBytes = -1;

  @Label("Direct Used After")
  @Description("Direct buffers' bytes in use after the action")
  @DataAmount
  long directUsedAfterBytes = -1;

  @Label("Direct Held")
  @Description("What the agent's caches hold of direct memory")
  @DataAmount
  long directHeldBytes = -1;

  /** Commits one reclaim event when the event is enabled. */
  public static void emit(
      String action,
      String reason,
      long limitBytes,
      long usageBeforeBytes,
      long usageAfterBytes,
      long directUsedBeforeBytes,
      long directUsedAfterBytes,
      long directHeldBytes) {
    ReclaimEvent e = new ReclaimEvent();
    if (e.shouldCommit()) {
      e.action = action;
      e.reason = reason;
      e.limitBytes = limitBytes;
      e.usageBeforeBytes = usageBeforeBytes;
      e.usageAfterBytes = usageAfterBytes;
      e.directUsedBeforeBytes = directUsedBeforeBytes;
      e.directUsedAfterBytes = directUsedAfterBytes;
      e.directHeldBytes = directHeldBytes;
      e.commit();
    }
  }
}
