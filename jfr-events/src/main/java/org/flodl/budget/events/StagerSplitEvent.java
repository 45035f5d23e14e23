package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * One stager budget split 3:1 between the pinned tier and the flow window; the remainder of the
 * division goes to the pinned tier, so pinned + stream = total.
 */
@Name(StagerSplitEvent.NAME)
@Label("Stager Split")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("A stager budget split 3:1 between pinned memory and the stream window")
public final class StagerSplitEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.StagerSplit";

  @Label("Total")
  @Description("The stager's budget")
  @DataAmount
  long totalBytes;

  @Label("Pinned")
  @Description("Bytes for the pinned tier (three quarters, plus the remainder)")
  @DataAmount
  long pinnedBytes;

  @Label("Stream")
  @Description("Bytes for the flow window (one quarter)")
  @DataAmount
  long streamBytes;

  /** Commits one split event when the event is enabled; a disabled event costs a branch. */
  public static void emit(long totalBytes, long pinnedBytes, long streamBytes) {
    StagerSplitEvent event = new StagerSplitEvent();
    if (event.shouldCommit()) {
      event.totalBytes = totalBytes;
      event.pinnedBytes = pinnedBytes;
      event.streamBytes = streamBytes;
      event.commit();
    }
  }
}
