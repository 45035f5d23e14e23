package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * At the end of every chunk (and so at the end of every recording file): what the per-decision
 * events of the chunk stand for. The agent's hook first closes the chunk's ledger (the last site
 * summaries, and one event per site and kind for the decisions its throttle held back since the
 * last committed one), then commits this event: the throttles in force, how many decisions and
 * releases the agent took since the previous one, and how many events it committed for them.
 */
@Name(SamplingEvent.NAME)
@Label("Decision Sampling")
@Category({Categories.ROOT, Categories.AGENT})
@Description(
    "What the per-decision events of a chunk stand for: the throttles in force and how "
        + "many decisions they sampled")
@Period("endChunk")
@StackTrace(false)
public final class SamplingEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.agent.Sampling";

  private static final PeriodicHook HOOK = new PeriodicHook(SamplingEvent.class);

  @Label("Admission Throttle")
  @Description(
      "The CacheAdmission throttle in force: events a second per site and decision kind, "
          + "or off")
  String admissionThrottle;

  @Label("Release Throttle")
  @Description("The Release throttle in force: events a second per site and cause, or off")
  String releaseThrottle;

  @Label("Decisions")
  @Description("Cache-admit decisions the agent took since the previous Decision Sampling event")
  long decisions;

  @Label("Admission Events")
  @Description("CacheAdmission events the agent committed for them")
  long admissionEvents;

  @Label("Releases")
  @Description("Releases the agent handed back since the previous Decision Sampling event")
  long releases;

  @Label("Release Events")
  @Description("Release events the agent committed for them")
  long releaseEvents;

  /** Commits the chunk's sampling account when the event is enabled. */
  public static void emit(
      String admissionThrottle,
      String releaseThrottle,
      long decisions,
      long admissionEvents,
      long releases,
      long releaseEvents) {
    SamplingEvent event = new SamplingEvent();
    if (event.shouldCommit()) {
      event.admissionThrottle = admissionThrottle;
      event.releaseThrottle = releaseThrottle;
      event.decisions = decisions;
      event.admissionEvents = admissionEvents;
      event.releases = releases;
      event.releaseEvents = releaseEvents;
      event.commit();
    }
  }

  /** Returns true when {@code emitter} now runs at the end of every chunk. */
  public static boolean register(Runnable emitter) {
    return HOOK.register(emitter);
  }

  /** Returns true when an emitter was registered and has been removed. */
  public static boolean unregister() {
    return HOOK.unregister();
  }
}
