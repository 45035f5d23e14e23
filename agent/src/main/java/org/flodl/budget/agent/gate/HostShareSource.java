package org.flodl.budget.agent.gate;

import java.io.IOException;
import java.util.function.DoubleSupplier;
import org.flodl.budget.policy.share.HostShare;
import org.flodl.budget.policy.share.HostShareRegistry;
import org.flodl.budget.policy.share.RateMeter;

/**
 * {@code host_share=auto}: this rank's share of the host among the co-hosted ranks of the same
 * job ({@code budget_i ∝ rate_i}), from the policy's host-share registry. The rate is the
 * decisions this rank's sites take (a put at a cache-admit site, a batch at a batch site), counted
 * on the hot path with one adder; the registry is joined when the agent's probe thread starts,
 * not at JVM start. Until then, or when the registry cannot be joined, the share is 1.
 */
public final class HostShareSource implements DoubleSupplier {
  private final String job;
  private final RateMeter meter = new RateMeter(5_000);
  private volatile HostShare share;

  /** Returns the source for ranks of {@code job} (empty: the main class's name). */
  public HostShareSource(String job) {
    this.job = job.isEmpty() ? mainClass() : job;
  }

  private static String mainClass() {
    String command = System.getProperty("sun.java.command", "");
    String first = command.trim().split(" ", 2)[0];
    return first.isEmpty() ? "job" : first;
  }

  /** Joins the registry and starts the heartbeat; a failure is one line and the share stays 1. */
  void start() {
    try {
      HostShareRegistry registry = HostShareRegistry.join(HostShareRegistry.defaultRoot(), job,
          ProcessHandle.current().pid(), HostShareRegistry.DEFAULT_STALE_MILLIS, Log::warn);
      HostShare started = HostShare.start(registry, meter, 1_000, Log::warn);
      share = started;
      // A clean exit hands the share back at once (a killed rank's goes when it is seen dead).
      Runtime.getRuntime().addShutdownHook(
          new Thread(started::close, "flodl-budget-host-share-exit"));
    } catch (IOException | RuntimeException e) {
      Log.warn("host_share=auto: the host-share registry could not be joined (" + e.getMessage()
          + "); this rank budgets the whole host");
    }
  }

  /** Counts one decision of this rank. */
  void count() {
    meter.add(1);
  }

  @Override
  public double getAsDouble() {
    HostShare s = share;
    return s == null ? 1.0 : s.share();
  }
}
