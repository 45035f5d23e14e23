package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The agent's own recording ({@code record=FILE}) could not be written: the disk is full, the
 * folder is gone. The recording goes on in memory and on JFR's repository; the next write tries
 * again.
 */
@Name(RecordingProblemEvent.NAME)
@Label("Recording Problem")
@Category({Categories.ROOT, Categories.AGENT})
@Description("The agent's record= file could not be written")
@StackTrace(false)
public final class RecordingProblemEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.agent.RecordingProblem";

  @Label("File")
  @Description("The record= file")
  String file;

  @Label("Problem")
  @Description("What went wrong, one line")
  String problem;

  /** Commits one problem event when the event is enabled. */
  public static void emit(String file, String problem) {
    RecordingProblemEvent event = new RecordingProblemEvent();
    if (event.shouldCommit()) {
      event.file = file;
      event.problem = problem;
      event.commit();
    }
  }
}
