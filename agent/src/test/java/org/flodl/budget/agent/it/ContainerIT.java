package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ACTION;
import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CGROUP;
import static org.flodl.budget.events.EventFields.CGROUP_LIMIT_BYTES;
import static org.flodl.budget.events.EventFields.CGROUP_USAGE_BYTES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.HOST_AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.LIMIT_BYTES;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.RAM_SOURCE;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.USAGE_BEFORE_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.ReclaimEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent in a real memory cgroup (v1 here, made by the test where root may; skipped with the
 * reason elsewhere), issue 17: the probe reads the cgroup's limit and usage and the direct and
 * native budgets come from it; and the custom-loader app's direct-slice run (8 MiB row groups,
 * 2,000 samples of 1 MiB, one epoch, a 1 GiB limit), which the kernel kills without the agent,
 * completes with it in 5 of 5 runs, its container guard collecting the garbage row groups before
 * they reach the limit, at {@code MaxDirectMemorySize=8g} and at {@code 700m}.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class ContainerIT {
  /** The guard's high-water mark, percent of the limit (ContainerGuard.HIGH_WATER_PERCENT). */
  private static final long HIGH_WATER = 90;

  private static final long GIB = 1L << 30;
  private static final Path LOADER_APP =
      Path.of(
          System.getProperty(
              "flodl.it.loaderApp",
              "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar"));
  static final Path SITES =
      Path.of(System.getProperty("flodl.it.loaderSites", "../test-apps/loader-app"))
          .resolve("sites.properties");
  static final String[] SCENARIO = {
    "--sample-kind=direct-slice",
    "--row-group-bytes=8M",
    "--sample-bytes=1M",
    "--samples=2000",
    "--epochs=1", // the kill comes in the first: it reads every row group (2 GiB of them)
    "--batch-size=16",
    "--depth=4"
  };

  @Test
  void theProbeReadsTheCgroupAndTheHostTiersAreBudgetedFromIt() throws Exception {
    Path cg = Cgroups.create("container-probe", GIB);
    Preconditions.require(cg != null, "theProbeReadsTheCgroup: no memory cgroup can be made here");
    ChildJvm.Result r;
    try {
      Path sites = Sites.write("store", Sites.STORE);
      r =
          ChildJvm.on("container-probe", Jdk.JDK17)
              .launchedBy(Cgroups.enter(cg))
              .agent("sites=" + sites + ",probe_interval=250ms,log=info")
              .record()
              .run("com.acme.it.CacheApp", "--samples=40", "--sample-bytes=1024", "--pace-ms=25");
    } finally {
      Cgroups.remove(cg);
    }
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stderr.contains("container guard: memory cgroup " + cg), r.stderr);
    List<RecordedEvent> probes = r.events(MemoryProbeEvent.NAME);
    assertFalse(probes.isEmpty(), r.toString());
    for (RecordedEvent e : probes) {
      assertEquals(GIB, e.getLong(CGROUP_LIMIT_BYTES), e.toString());
      assertTrue(
          e.getLong(CGROUP_USAGE_BYTES) > 0 && e.getLong(CGROUP_USAGE_BYTES) < GIB, e.toString());
      assertEquals(cg.toString(), e.getString(CGROUP), e.toString());
      assertEquals("proc+cgroup-v1", e.getString(RAM_SOURCE), e.toString());
      assertTrue(e.getLong(HOST_AVAILABLE_BYTES) <= GIB, e.toString());
    }
    for (String tier : List.of("direct", "native")) {
      List<RecordedEvent> budgets =
          r.events(RamBudgetEvent.NAME).stream()
              .filter(e -> e.getString(TIER).equals(tier))
              .toList();
      assertFalse(budgets.isEmpty(), "no " + tier + " budget: " + r);
      for (RecordedEvent e : budgets) {
        long available = e.getLong(AVAILABLE_BYTES);
        assertTrue(available > 0 && available <= GIB, e.toString());
        // The anchored share of what the container leaves: min(r, 0.9) x (available + held).
        long ceiling = (long) (e.getDouble(MAX_USAGE) * (available + e.getLong(HELD_BYTES)));
        assertTrue(
            e.getLong(BUDGET_BYTES) > 0 && e.getLong(BUDGET_BYTES) <= ceiling + 1, e.toString());
      }
    }
  }

  @ParameterizedTest(name = "MaxDirectMemorySize={0}")
  @ValueSource(strings = {"8g", "700m"})
  void theDirectSliceRunTheKernelKillsCompletesWithTheGuard(String maxDirect) throws Exception {
    Path cg = Cgroups.create("container-" + maxDirect, GIB);
    Preconditions.require(cg != null, "theDirectSliceRun: no memory cgroup can be made here");
    try {
      ChildJvm.Result bare =
          ChildJvm.on("container-bare-" + maxDirect, Jdk.JDK17)
              .launchedBy(Cgroups.enter(cg))
              .jvm("-XX:MaxDirectMemorySize=" + maxDirect)
              .classPath(LOADER_APP)
              .timeout(120)
              .run("com.acme.train.TrainMain", SCENARIO);
      assertNotEquals(0, bare.exitCode, "without the agent the run must fail: " + bare);
      assertFalse(bare.stdout.contains("TRAINING COMPLETE"), bare.toString());
      if (maxDirect.equals("8g")) {
        // The guard is what keeps it alive: with reclaim=off the budget alone does not.
        ChildJvm.Result off =
            ChildJvm.on("container-reclaim-off", Jdk.JDK17)
                .launchedBy(Cgroups.enter(cg))
                .jvm("-XX:MaxDirectMemorySize=" + maxDirect)
                .agent("sites=" + SITES.toAbsolutePath() + ",reclaim=off")
                .classPath(LOADER_APP)
                .timeout(120)
                .run("com.acme.train.TrainMain", SCENARIO);
        assertNotEquals(0, off.exitCode, "reclaim=off: " + off);
        assertFalse(off.stdout.contains("TRAINING COMPLETE"), off.toString());
      }
      for (int run = 1; run <= 5; run++) {
        Cgroups.resetPeak(cg);
        ChildJvm.Result r =
            ChildJvm.on("container-agent-" + maxDirect + "-" + run, Jdk.JDK17)
                .launchedBy(Cgroups.enter(cg))
                .jvm("-XX:MaxDirectMemorySize=" + maxDirect)
                .agent("sites=" + SITES.toAbsolutePath())
                .record()
                .classPath(LOADER_APP)
                .timeout(180)
                .run("com.acme.train.TrainMain", SCENARIO);
        assertEquals(0, r.exitCode, "run " + run + ": " + r);
        assertTrue(
            r.stdout.contains("TRAINING COMPLETE samples_delivered=2000")
                && r.stdout.contains("exactly_once=true"),
            "run " + run + ": " + r);
        long peak = Cgroups.peak(cg);
        List<RecordedEvent> reclaims =
            r.events(ReclaimEvent.NAME).stream()
                .filter(
                    e ->
                        e.getString(ACTION).equals("GC")
                            || e.getString(ACTION).equals("MALLOC_TRIM"))
                .toList();
        // The guard acts when a reading of its own finds the container past 90 % of its limit,
        // and only then. At 8g nothing else collects the garbage row groups: the run completes
        // only if it acted. At 700m the JDK's own limit collects them too, and the cgroup's peak
        // does not tell whether the guard had to: a peak between two of its readings, or one made
        // of direct memory the caches hold (nothing to collect), leaves it idle (one run of 5
        // peaked 1.3 MB past the line with no reading there). What it did do is checked below.
        if (maxDirect.equals("8g")) {
          assertFalse(
              reclaims.isEmpty(),
              "run "
                  + run
                  + ": the container peaked at "
                  + peak
                  + " bytes and the guard did nothing: "
                  + r);
        }
        for (RecordedEvent e : reclaims) {
          assertEquals(GIB, e.getLong(LIMIT_BYTES));
          if (e.getString(ACTION).equals("GC")) {
            assertTrue(
                e.getLong(USAGE_BEFORE_BYTES) * 100 >= GIB * HIGH_WATER,
                "collected only past the high-water mark: " + e);
          }
        }
        System.out.println(
            "MaxDirectMemorySize="
                + maxDirect
                + " run "
                + run
                + ": peak "
                + (peak >> 20)
                + " MiB, "
                + reclaims.size()
                + " reclaim actions by the guard");
      }
    } finally {
      Cgroups.remove(cg);
    }
  }
}
