package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One class the agent wove, or failed to weave, for a site: the record of what the agent changed in
 * the application. Its stack trace would only show the class-file transformer, so it has none.
 */
@Name(InstrumentedEvent.NAME)
@Label("Instrumented")
@Category({Categories.ROOT, Categories.AGENT})
@Description("A class the agent wove for a site, or failed to")
@StackTrace(false)
public final class InstrumentedEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.agent.Instrumented";

  @Label("Class Name")
  @Description("The woven class")
  String className;

  @Label("Class Loader")
  @Description("The loader that defined the class: bootstrap, app (its class), or a class and id")
  String classLoader;

  @Label("Site")
  @Description("The site the class was woven for: the sites-file block name, or djl")
  String site;

  @Label("Outcome")
  @Description(
      "What happened: WOVEN, FAILED, SKIPPED (a preset met a version it does not know), "
          + "PRICER_FAILED, DECLINE_FAILED, NOT_DECLINED (a cache whose writers or listeners a decline"
          + " would harm), NOT_COVERED (a value that reached a cache by a door not decided)")
  String outcome;

  @Label("Message")
  @Description("Why it failed or what was woven, one line; empty when there is nothing to add")
  String message;

  /** Commits one weaving event when the event is enabled; a disabled event costs a branch. */
  public static void emit(
      String className, String classLoader, String site, String outcome, String message) {
    InstrumentedEvent event = new InstrumentedEvent();
    if (event.shouldCommit()) {
      event.className = className;
      event.classLoader = classLoader;
      event.site = site;
      event.outcome = outcome;
      event.message = message;
      event.commit();
    }
  }
}
