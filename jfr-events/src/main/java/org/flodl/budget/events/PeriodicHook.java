package org.flodl.budget.events;

import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;

/**
 * The one registration a periodic flodl event holds with Flight Recorder: an emitter the agent
 * supplies, run by the recorder's periodic thread at the period the recording's settings give the
 * event. A failing emitter never escapes into the recorder: its first failure is one line on
 * stderr, later ones are counted silently, and the next period tries again.
 */
final class PeriodicHook {
  private final Class<? extends Event> eventClass;
  private final AtomicBoolean warned = new AtomicBoolean();
  private Runnable registered;

  PeriodicHook(Class<? extends Event> eventClass) {
    this.eventClass = eventClass;
  }

  /** Returns true when {@code emitter} now runs each period, replacing any earlier emitter. */
  synchronized boolean register(Runnable emitter) {
    unregister();
    Runnable guarded =
        () -> {
          try {
            emitter.run();
          } catch (RuntimeException | LinkageError e) {
            if (warned.compareAndSet(false, true)) {
              System.err.println(
                  "flodl-budget: the " + eventClass.getSimpleName() + " emitter failed, " + e);
            }
          }
        };
    try {
      FlightRecorder.addPeriodicEvent(eventClass, guarded);
    } catch (RuntimeException e) {
      System.err.println(
          "flodl-budget: cannot register the periodic " + eventClass.getSimpleName() + ", " + e);
      return false;
    }
    registered = guarded;
    return true;
  }

  /** Returns true when an emitter was registered and has been removed. */
  synchronized boolean unregister() {
    Runnable previous = registered;
    registered = null;
    return previous != null && FlightRecorder.removePeriodicEvent(previous);
  }
}
