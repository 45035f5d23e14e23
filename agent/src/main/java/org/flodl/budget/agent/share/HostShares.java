package org.flodl.budget.agent.share;

import java.util.OptionalDouble;
import java.util.function.DoubleSupplier;
import org.flodl.budget.agent.gate.Log;
import org.flodl.budget.policy.share.HostShare;
import org.flodl.budget.policy.share.HostShareRegistry;
import org.flodl.budget.policy.share.RateMeter;

/**
 * This JVM's share of the host's RAM budget, as {@code host_share} asks: a fixed fraction, or
 * ({@code auto}) its consumption rate over the rates of the live ranks of the same job on this
 * host, found through the {@link HostShareRegistry}. The gate counts consumption here (a batch
 * at a batch site, a sample at a cache site); ranks of one job run the same code, so the units
 * agree. If the registry cannot be used the share is 1 and the reason is one line on stderr.
 */
public final class HostShares {
  private static final long PERIOD_MILLIS = 500;
  private static final RateMeter METER = new RateMeter(2_000);
  private static volatile HostShare live;

  private HostShares() {}

  /** Counts {@code units} consumed by this rank (cheap: a striped adder). */
  public static void consumed(long units) {
    METER.add(units);
  }

  /**
   * Returns the share supplier for {@code host_share}: the fixed value when one is configured,
   * else the registry's live share for {@code job} (the main class when empty). The registry is
   * joined at the first call (the first budget refresh, off premain), not here.
   */
  public static DoubleSupplier start(OptionalDouble configured, String job) {
    if (configured.isPresent()) {
      double share = configured.getAsDouble();
      return () -> share;
    }
    String name = job == null || job.isEmpty() ? mainClass() : job;
    return new DoubleSupplier() {
      private DoubleSupplier joined;

      @Override
      public synchronized double getAsDouble() {
        if (joined == null) {
          joined = join(name);
        }
        return joined.getAsDouble();
      }
    };
  }

  private static DoubleSupplier join(String name) {
    try {
      HostShareRegistry registry = HostShareRegistry.join(HostShareRegistry.defaultRoot(), name,
          ProcessHandle.current().pid(), HostShareRegistry.DEFAULT_STALE_MILLIS, Log::warn);
      HostShare share = HostShare.start(registry, METER, PERIOD_MILLIS, Log::warn);
      live = share;
      Runtime.getRuntime().addShutdownHook(new Thread(share::close, "flodl-budget-host-share-exit"));
      Log.info("host_share=auto: job '" + name + "' in " + registry.folder());
      return share::share;
    } catch (Exception | LinkageError e) {
      Log.warn("host_share=auto cannot use the host-share registry (" + e.getMessage()
          + "); this rank takes the whole host budget (share 1)");
      return () -> 1.0;
    }
  }

  /** Returns the main class of this JVM (the job's default name), or {@code job}. */
  static String mainClass() {
    String command = System.getProperty("sun.java.command", "");
    String first = command.isBlank() ? "job" : command.trim().split("\\s+")[0];
    int slash = first.lastIndexOf('/');
    return slash >= 0 ? first.substring(slash + 1) : first;
  }

  /** Returns the running auto share, or null when the share is fixed or the registry failed. */
  static HostShare live() {
    return live;
  }
}
