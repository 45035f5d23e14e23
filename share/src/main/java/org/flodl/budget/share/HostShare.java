package org.flodl.budget.share;

import java.io.IOException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * This rank's live share of the host: a daemon thread that, every period, folds the rate meter into
 * the registry, beats, and re-reads the live ranks. {@link #share()} is a volatile read, so the
 * budget path never touches a file.
 */
public final class HostShare implements AutoCloseable {
  private final HostShareRegistry registry;
  private final RateMeter meter;
  private final ScheduledExecutorService timer;
  private final Consumer<String> warn;
  private volatile double share = 1.0;
  private volatile boolean warnedBeat;

  private HostShare(
      HostShareRegistry registry, RateMeter meter, long periodMillis, Consumer<String> warn) {
    this.registry = registry;
    this.meter = meter;
    this.warn = warn;
    // No lambdas: this starts with the agent (start-up, StartPathIT).
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            new java.util.concurrent.ThreadFactory() {
              @Override
              public Thread newThread(Runnable r) {
                Thread t = new Thread(r, "flodl-budget-host-share");
                t.setDaemon(true);
                return t;
              }
            });
    tick();
    timer.scheduleAtFixedRate(
        new Runnable() {
          @Override
          public void run() {
            tick();
          }
        },
        periodMillis,
        periodMillis,
        TimeUnit.MILLISECONDS);
  }

  /** Returns a started host share over {@code registry}, fed by {@code meter}. */
  public static HostShare start(
      HostShareRegistry registry, RateMeter meter, long periodMillis, Consumer<String> warn) {
    return new HostShare(registry, meter, periodMillis, warn);
  }

  private void tick() {
    try {
      registry.publish(meter.sample(System.currentTimeMillis()));
      registry.heartbeat();
      share = registry.share();
    } catch (IOException | RuntimeException e) {
      if (!warnedBeat) {
        warnedBeat = true;
        warn.accept(
            "flodl-budget: host-share heartbeat failed ("
                + e
                + "); keeping the last share "
                + share);
      }
    }
  }

  /** Returns this rank's share of the host, in (0, 1]. */
  public double share() {
    return share;
  }

  /** Returns the meter the hot path counts into. */
  public RateMeter meter() {
    return meter;
  }

  /** Stops beating and removes this rank's entry. */
  @Override
  public void close() {
    timer.shutdownNow();
    registry.leave();
  }
}
