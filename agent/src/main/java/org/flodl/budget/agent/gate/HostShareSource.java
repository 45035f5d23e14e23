package org.flodl.budget.agent.gate;

import java.io.IOException;
import java.util.function.DoubleSupplier;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.share.HostShare;
import org.flodl.budget.share.HostShareRegistry;
import org.flodl.budget.share.RateMeter;

/**
 * {@code host_share=auto}: this rank's share of the host among the co-hosted ranks of the same job
 * in the same memory domain ({@code budget_i ∝ rate_i}), from the policy's host-share registry. The
 * rate is the decisions this rank's sites take (a put at a cache-admit site, a batch at a batch
 * site): the cache-admit sites' own counts, which the meter sums when it samples (once a second),
 * and the batches on a striped {@link Tally} of their own; nothing is counted per thread, and
 * nothing grows with the threads whether the registry is joined or not. The registry is joined when
 * the agent's probe thread has read memory once (the domain is then known), not at JVM start. Until
 * then, or when the registry cannot be joined, the share is 1.
 *
 * <p>The default job (no {@code job=}) is the program's name, the main class or the jar's file
 * name; on the host, outside any binding cgroup, it is that name and the parent process's pid, so
 * the ranks one launcher started divide the host and unrelated runs of one program do not. Inside a
 * memory cgroup the name alone: every rank there draws on the same limit.
 */
public final class HostShareSource implements DoubleSupplier {
  private final String job;

  /** Batches seen at batch sites (and DJL's fetch): one counter, striped. */
  private final Tally batches = new Tally(1);

  /** The cache-admit sites whose decisions count (set by the engine; none until then). */
  private volatile PointRegistry sites;

  private final RateMeter meter =
      new RateMeter(
          5_000,
          new java.util.function.LongSupplier() {
            @Override
            public long getAsLong() {
              PointRegistry s = sites;
              return batches.total(0) + (s == null ? 0 : s.cacheDecisions());
            }
          });
  private volatile HostShare share;

  /** Returns the source for ranks of {@code job} (empty: the default, see the class). */
  public HostShareSource(String job) {
    this.job = job;
  }

  /** Returns the program's name: the main class, or the jar's file name for {@code -jar}. */
  public static String programName() {
    String command = System.getProperty("sun.java.command", "");
    String first = command.trim().split(" ", 2)[0];
    if (first.isEmpty()) {
      return "job";
    }
    if (first.endsWith(".jar")) {
      int slash = Math.max(first.lastIndexOf('/'), first.lastIndexOf('\\'));
      return first.substring(slash + 1);
    }
    return first;
  }

  /** Returns the job whose ranks this one divides {@code domain} with. */
  String jobIn(String domain) {
    if (!job.isEmpty()) {
      return job;
    }
    if (!domain.equals("host")) {
      return programName();
    }
    java.util.Optional<ProcessHandle> p = ProcessHandle.current().parent(); // no lambda: start-up
    long parent = p.isEmpty() ? 0L : p.get().pid();
    return programName() + "@" + parent;
  }

  /**
   * Joins the registry of {@code domain} and starts the heartbeat; a failure is one line and the
   * share stays 1.
   */
  void start(String domain) {
    HostShare started = null;
    try {
      // No lambdas: this starts with the agent (start-up, StartPathIT).
      java.util.function.Consumer<String> warn =
          new java.util.function.Consumer<String>() {
            @Override
            public void accept(String line) {
              Log.warn(line);
            }
          };
      HostShareRegistry registry =
          HostShareRegistry.joinDefault(
              domain,
              jobIn(domain),
              ProcessHandle.current().pid(),
              HostShareRegistry.DEFAULT_STALE_MILLIS,
              warn);
      started = HostShare.start(registry, meter, 1_000, warn);
      share = started;
      HostShare closing = started;
      // A clean exit hands the share back at once (a killed rank's goes when it is seen dead).
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  new Runnable() {
                    @Override
                    public void run() {
                      closing.close();
                    }
                  },
                  "flodl-budget-host-share-exit"));
    } catch (IllegalStateException exiting) {
      // the JVM began to exit while the rank joined: nothing to share, nothing left behind
      share = null;
      if (started != null) {
        started.close();
      }
    } catch (IOException | RuntimeException e) {
      Log.warn(
          "host_share=auto: the host-share registry could not be joined ("
              + e.getMessage()
              + "); this rank budgets the whole host");
    }
  }

  /** Counts one batch of this rank, on the cell of {@code t} (the calling thread's state). */
  void countBatch(GateThread t) {
    batches.add(t, batches.cell(t), 0, 1);
  }

  /**
   * Has the meter of {@code source} (none: nothing to do) count the decisions of the cache-admit
   * sites bound in {@code registry}.
   */
  static void countSites(HostShareSource source, PointRegistry registry) {
    if (source != null) {
      source.sites = registry;
    }
  }

  @Override
  public double getAsDouble() {
    HostShare s = share;
    return s == null ? 1.0 : s.share();
  }
}
