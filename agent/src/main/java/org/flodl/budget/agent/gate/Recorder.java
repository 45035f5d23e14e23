package org.flodl.budget.agent.gate;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

/**
 * Whether Flight Recorder runs in this JVM: the agent commits events and registers its periodic
 * hooks only once it does, so a JVM that records nothing never loads the recorder's classes for the
 * agent's sake (a start-up cost of its own). A recording started later ({@code jcmd JFR.start},
 * Mission Control) is picked up: the periodic hooks register when the recorder initializes, and
 * decisions are committed from then on.
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
    listen(hooks);
  }

  /**
   * {@link #whenInitialized}, for the start thread: runs {@code hooks} now if the recorder is
   * initialized, else has a thread of its own ask the recorder to run them once it initializes (the
   * listener's registration loads Flight Recorder's security support, 10 ms of start-up the
   * application's thread need not wait for). The recorder runs a listener added after it
   * initialized at once, so a recording that starts meanwhile is not missed.
   */
  public static void whenInitializedOffThisThread(Runnable hooks) {
    if (on()) {
      hooks.run();
      return;
    }
    Thread t =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                try {
                  listen(hooks);
                } catch (Throwable e) {
                  Log.warn(
                      "waiting for Flight Recorder failed (" + e + "); recordings get no settings");
                }
              }
            },
            "flodl-budget-recorder-listener");
    t.setDaemon(true);
    t.start();
  }

  private static void listen(Runnable hooks) {
    FlightRecorder.addListener(
        new FlightRecorderListener() {
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
