package org.flodl.budget.agent.gate;

import java.util.concurrent.locks.LockSupport;
import org.flodl.budget.agent.library.Log;

/**
 * The {@code flodl-budget-probe} daemon thread: refreshes the budgets every {@code probe_interval},
 * and at once when {@link #request asked}; after its first refresh it starts the rest of the
 * agent's start-up ({@code flodl-budget-start}) off itself, so the budgets keep up with a cache
 * that fills in its first second. The first refresh waits a quarter of the interval (at most
 * {@value #FIRST_REFRESH_MILLIS} ms) unless asked sooner: it loads the JVM's management beans, tens
 * of milliseconds of CPU that a JVM's start-up, on a machine of few cores, need not share its cores
 * with, and the first decisions need none of it (the heap is budgeted on {@code Runtime}'s figures
 * until then, a GPU depth on its VRAM reading alone, and a decision that needs the probes reads
 * them itself). A heap that grows by an eighth of its budget asks at once. The thread that asks
 * never waits. After each refresh it trims the holdings' tables ({@link Holdings#trim}).
 */
final class ProbeThread {
  /** The longest the first refresh waits, unless asked sooner. */
  static final long FIRST_REFRESH_MILLIS = 250;

  private final Budgets budgets;
  private final long intervalNanos;
  private volatile Thread thread;
  private volatile boolean requested;

  ProbeThread(Budgets budgets, long intervalMillis) {
    this.budgets = budgets;
    this.intervalNanos = intervalMillis * 1_000_000L;
  }

  /**
   * Starts the thread once, trimming {@code holdings} after each refresh; later calls do nothing.
   */
  synchronized void start(Runnable afterFirstRefresh, Holdings holdings) {
    if (thread != null) {
      return;
    }
    Thread t =
        new Thread(
            new Runnable() { // no lambda: start-up (StartPathIT)
              @Override
              public void run() {
                loop(afterFirstRefresh, holdings);
              }
            },
            "flodl-budget-probe");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** Asks for a refresh now (once until it is made); never waits. */
  void request() {
    if (!requested) {
      requested = true;
      Thread t = thread;
      if (t != null) {
        LockSupport.unpark(t);
      }
    }
  }

  private void loop(Runnable afterFirstRefresh, Holdings holdings) {
    if (!waitUntil(
        System.nanoTime() + Math.min(intervalNanos / 4, FIRST_REFRESH_MILLIS * 1_000_000L))) {
      return;
    }
    requested = false;
    budgets.refresh();
    housekeep(holdings);
    // The MBean server and the recorder's periodic hooks take a while to start: off this thread.
    Thread later =
        new Thread(
            new Runnable() { // no lambda: start-up (StartPathIT)
              @Override
              public void run() {
                try {
                  afterFirstRefresh.run();
                } catch (Throwable e) {
                  Log.warn("start-up after the first probe failed: " + e);
                }
              }
            },
            "flodl-budget-start");
    later.setDaemon(true);
    later.start();
    while (waitUntil(System.nanoTime() + intervalNanos)) {
      requested = false;
      budgets.refresh();
      housekeep(holdings);
    }
  }

  private static void housekeep(Holdings holdings) {
    try {
      holdings.trim(); // tables emptied for good give their buckets back
      holdings.copies.sweep(); // copying caches closed or collected give their entries back
    } catch (Throwable e) {
      Log.warnOnce("probe-housekeeping", "the probe thread's housekeeping failed: " + e);
    }
  }

  /** Parks until {@code deadline} or a request; returns false when the thread was interrupted. */
  private boolean waitUntil(long deadline) {
    while (!requested) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      LockSupport.parkNanos(this, left);
      if (Thread.currentThread().isInterrupted()) {
        return false;
      }
    }
    return !Thread.currentThread().isInterrupted();
  }
}
