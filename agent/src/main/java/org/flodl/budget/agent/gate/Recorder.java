package org.flodl.budget.agent.gate;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * Whether Flight Recorder runs in this JVM: the agent commits events and registers its periodic
 * hooks only once it does, so a JVM that records nothing never loads the recorder's classes for
 * the agent's sake (a start-up cost of its own). A recording started later ({@code jcmd
 * JFR.start}, Mission Control) is picked up: the periodic hooks register when the recorder
 * initializes, and decisions are committed from then on.
 */
public final class Recorder {
  private Recorder() {}

  /** Returns whether the recorder is initialized (a static volatile read). */
  public static boolean on() {
    return FlightRecorder.isInitialized();
  }

  /** Runs {@code hooks} now if the recorder is initialized, else once it initializes. */
  public static void whenInitialized(Runnable hooks) {
    if (on()) {
      hooks.run();
      return;
    }
    FlightRecorder.addListener(new FlightRecorderListener() {
      private final java.util.concurrent.atomic.AtomicBoolean done =
          new java.util.concurrent.atomic.AtomicBoolean();

      @Override
      public void recorderInitialized(FlightRecorder recorder) {
        if (done.compareAndSet(false, true)) { // no monitor of ours held while JFR is called
          try {
            hooks.run();
          } catch (Throwable t) {
            Log.warn("registering the periodic events failed: " + t);
          }
        }
      }
    });
  }
}
