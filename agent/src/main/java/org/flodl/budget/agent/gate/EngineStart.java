package org.flodl.budget.agent.gate;

import org.flodl.budget.probes.MemorySnapshot;

/**
 * The engine's background work, started once, at its first decision (or at attach): the probe
 * thread, then, once the probes have been read, the host share's registration in its memory domain,
 * the periodic events, and what the agent asked to run then (the MBean, the configuration hook).
 */
final class EngineStart implements Runnable {
  private final Budgets budgets;
  private final Holdings holdings;
  private final PeriodicEvents periodic;
  private final HostShareSource hostShare;
  private volatile boolean started;
  private volatile Runnable afterFirstRefresh;

  EngineStart(
      Budgets budgets, Holdings holdings, PeriodicEvents periodic, HostShareSource hostShare) {
    this.budgets = budgets;
    this.holdings = holdings;
    this.periodic = periodic;
    this.hostShare = hostShare;
  }

  /** Sets what runs once the probes have been read the first time. */
  void onStart(Runnable afterFirstRefresh) {
    this.afterFirstRefresh = afterFirstRefresh;
  }

  /** Starts the probe thread and the periodic events, the first time it is called. */
  void start() {
    if (started) {
      return;
    }
    started = true;
    periodic.registerIfRecording();
    budgets.start(this, holdings);
  }

  /** Runs once the probes have been read the first time (on the probe thread). */
  @Override
  public void run() {
    if (hostShare != null) {
      MemorySnapshot s = budgets.snapshot();
      hostShare.start(s == null || s.host() == null ? "host" : s.host().domain());
    }
    periodic.registerWhenRecording();
    Runnable after = afterFirstRefresh;
    if (after != null) {
      after.run();
    }
  }
}
