package org.flodl.budget.agent.gate;

import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import org.flodl.budget.agent.library.Log;

/**
 * Whether Flight Recorder runs in this JVM: the agent commits events and registers its periodic
 * hooks only once it does, so a JVM that records nothing never loads the recorder's classes for the
 * agent's sake (a start-up cost of its own). A recording started later ({@code jcmd JFR.start},
 * Mission Control) is picked up: the periodic hooks register when the recorder initializes, and
 * decisions are committed from then on.
 */
public final class Recorder {
  /** How long the start thread's listener waits before it registers. */
  static final long LISTEN_AFTER_MILLIS = 250;

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
   * initialized, else has a thread of its own ask the recorder to run them once it initializes. The
   * listener's registration loads Flight Recorder's security support, 10 ms of CPU: the thread
   * waits {@value #LISTEN_AFTER_MILLIS} ms first, so that it takes none from the application's
   * start-up. The recorder runs a listener added after it initialized at once, so a recording that
   * starts meanwhile is not missed (its hooks run then).
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
                  Thread.sleep(LISTEN_AFTER_MILLIS);
                  listen(hooks);
                } catch (InterruptedException e) {
                  return; // the JVM is going
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
