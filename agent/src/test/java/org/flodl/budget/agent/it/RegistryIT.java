package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.probes.HostMemoryProbe;
import org.flodl.budget.share.HostShareRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The host-share registry as hostile neighbours and crashes leave it (issue 16), with agent JVMs as
 * ranks ({@code host_share=auto}, each rank's share read from its recorded {@code RamBudget} events
 * of the host tier): a folder squatted by another user, planted entries that beat in the future,
 * claim unbounded rates or are not entries at all, ranks in two memory cgroups, and a rank killed
 * with -9. Each test has its own registry root ({@code -Dflodl.budget.registry}).
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class RegistryIT {

  private static Path freshRoot(String name) throws IOException {
    Path root =
        ChildJvm.WORK.resolve("registry-" + name + "-" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(root);
    return root;
  }

  /**
   * A rank: the test app caching 1 KiB samples at a pace, sharing the host through {@code root}.
   */
  private static ChildJvm rank(String name, Path root, String args) throws IOException {
    Path sites = Sites.write("registry", Sites.STORE);
    return ChildJvm.on(name, Jdk.JDK17)
        .jvm("-Xmx128m", "-D" + HostShareRegistry.ROOT_PROPERTY + "=" + root)
        .agent("sites=" + sites + ",probe_interval=250ms" + args)
        .record()
        .timeout(120);
  }

  private static Process run(ChildJvm rank, int samples, int paceMs) throws IOException {
    return rank.start(
        "com.acme.it.CacheApp",
        "--samples=" + samples,
        "--sample-bytes=1024",
        "--pace-ms=" + paceMs);
  }

  /** Returns the memory domain the agent finds for a JVM of this test's cgroup. */
  private static String domain() {
    try (HostMemoryProbe probe = HostMemoryProbe.system()) {
      return probe.read().domain();
    }
  }

  @Test
  void aSquattedFolderMovesTheRegistryWithOneLineAndRanksStillShare() throws Exception {
    Path root = freshRoot("squat");
    Path squatted = root.resolve("flodl-budget-" + System.getProperty("user.name"));
    Files.createDirectory(squatted);
    String how;
    if ("root".equals(System.getProperty("user.name"))) {
      UserPrincipal nobody =
          root.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
      Files.setOwner(squatted, nobody);
      how = "created by nobody";
    } else {
      Files.setPosixFilePermissions(squatted, PosixFilePermissions.fromString("rwxrwxrwx"));
      how = "opened to every user (not root: no other user's folder can be made)";
    }
    System.out.println("squatted " + squatted + ": " + how);
    Path home = root.resolve("home");
    Files.createDirectories(home);
    List<ChildJvm> jvms = new ArrayList<>();
    List<Process> ps = new ArrayList<>();
    for (String n : new String[] {"squat-a", "squat-b"}) {
      ChildJvm j = rank(n, root, ",job=squat").jvm("-Duser.home=" + home);
      jvms.add(j);
      ps.add(run(j, 500, 20));
    }
    List<ChildJvm.Result> results =
        List.of(jvms.get(0).await(ps.get(0)), jvms.get(1).await(ps.get(1)));
    Instant end = Shares.commonEnd(results);
    for (ChildJvm.Result r : results) {
      assertEquals(0, r.exitCode, r.toString());
      List<String> lines = lines(r.stderr, "the host-share registry meets under");
      assertEquals(1, lines.size(), r.stderr);
      assertTrue(lines.get(0).contains(home.resolve(".cache").toString()), lines.get(0));
      assertFalse(r.stderr.contains("budgets the whole host"), r.stderr);
      double share = Shares.settled(r, end);
      assertTrue(
          Math.abs(share - 0.5) <= 0.05,
          r.name + " settled on " + share + ", want 0.5: the squat must not switch sharing off");
    }
  }

  @Test
  void plantedAndCorruptEntriesNeverCountAndGoWithOneLine() throws Exception {
    Path root = freshRoot("planted");
    String job = "planted";
    // The folders exactly as a rank makes them, and the entries a hostile neighbour plants.
    HostShareRegistry.join(root, domain(), job, 1, 3_000, s -> {});
    Path folder = HostShareRegistry.folderFor(root, domain(), job);
    long now = System.currentTimeMillis();
    ProcessHandle init = ProcessHandle.of(1).orElseThrow();
    long initStart = init.info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    Files.writeString(folder.resolve("1.rank"), entry(1, initStart, "1000", now + 3_600_000));
    for (int i = 0; i < 300; i++) {
      Files.writeString(folder.resolve((100_000 + i) + ".rank"), "corrupt " + i + "\u0000");
    }
    // This test's JVM, alive and started when it says, claims a rate past any bound, and keeps
    // claiming it (a rank that rewrites its entry every 300 ms).
    long me = ProcessHandle.current().pid();
    long myStart =
        ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
    AtomicBoolean stop = new AtomicBoolean();
    Thread hostile =
        new Thread(
            () -> {
              while (!stop.get()) {
                try {
                  Files.writeString(
                      folder.resolve(me + ".rank"),
                      entry(me, myStart, "1e308", System.currentTimeMillis()));
                  Thread.sleep(300);
                } catch (IOException | InterruptedException e) {
                  return;
                }
              }
            });
    hostile.setDaemon(true);
    hostile.start();
    ChildJvm.Result r;
    try {
      ChildJvm j = rank("planted", root, ",job=" + job);
      r = j.await(run(j, 400, 20));
    } finally {
      stop.set(true);
      hostile.join(5_000);
    }
    assertEquals(0, r.exitCode, r.toString());
    List<String> lines = lines(r.stderr, "bad host-share entry");
    assertEquals(1, lines.size(), "one line per run, not per entry:\n" + r.stderr);
    List<RecordedEvent> budgets = Shares.nativeBudgets(r);
    for (RecordedEvent e : budgets) {
      assertEquals(1.0, e.getDouble(HOST_SHARE), 1e-9, "a planted entry counted: " + e);
    }
    try (var left = Files.list(folder)) {
      List<String> names =
          left.map(f -> f.getFileName().toString()).filter(n -> !n.equals(me + ".rank")).toList();
      assertTrue(names.isEmpty(), "bad entries left behind: " + names.size() + " " + names);
    }
  }

  @Test
  void ranksInTwoMemoryCgroupsDoNotDivideABudgetTheyDoNotShare() throws Exception {
    Path one = Cgroups.create("registry-1", 1L << 30);
    Path two = one == null ? null : Cgroups.create("registry-2", 1L << 30);
    if (two == null) {
      if (one != null) {
        Cgroups.remove(one);
      }
      Preconditions.unmet(
          "ranksInTwoMemoryCgroups: this machine does not let the test"
              + " make two memory cgroups");
    }
    try {
      Path root = freshRoot("cgroups");
      // No job=: the default, the main class inside a cgroup, the same for all three.
      ChildJvm a = rank("cgroup-1a", root, "").launchedBy(Cgroups.enter(one));
      ChildJvm b = rank("cgroup-2", root, "").launchedBy(Cgroups.enter(two));
      ChildJvm c = rank("cgroup-1c", root, "").launchedBy(Cgroups.enter(one));
      Process pa = run(a, 500, 20);
      Process pb = run(b, 500, 20);
      Process pc = run(c, 500, 20);
      List<ChildJvm.Result> results = List.of(a.await(pa), b.await(pb), c.await(pc));
      Instant end = Shares.commonEnd(results);
      double[] want = {0.5, 1.0, 0.5};
      for (int i = 0; i < 3; i++) {
        ChildJvm.Result r = results.get(i);
        assertEquals(0, r.exitCode, r.toString());
        double share = Shares.settled(r, end);
        assertTrue(
            Math.abs(share - want[i]) <= 0.05,
            r.name + " settled on " + share + ", want " + want[i]);
      }
    } finally {
      Cgroups.remove(one);
      Cgroups.remove(two);
    }
  }

  @Test
  void aRankKilledWithMinus9HandsItsShareBackWithinTwoSeconds() throws Exception {
    Path root = freshRoot("kill");
    ChildJvm a = rank("kill-a", root, ",job=kill");
    ChildJvm b = rank("kill-b", root, ",job=kill");
    ChildJvm c = rank("kill-c", root, ",job=kill");
    Process pa = run(a, 1000, 15);
    Process pb = run(b, 1000, 15);
    Process pc = run(c, 1000, 15);
    Thread.sleep(8_000);
    assertTrue(pc.isAlive(), "the rank to kill finished early");
    Instant killed = Instant.now();
    pc.destroyForcibly(); // SIGKILL: no exit hook runs, its entry stays behind
    assertTrue(pc.waitFor(10, TimeUnit.SECONDS));
    for (ChildJvm.Result r : List.of(a.await(pa), b.await(pb))) {
      assertEquals(0, r.exitCode, r.toString());
      double before = Shares.mean(r, killed.minusSeconds(3), killed);
      assertTrue(Math.abs(before - 1.0 / 3) <= 0.05, r.name + " had " + before + " before");
      Instant back = null;
      for (RecordedEvent e : Shares.nativeBudgets(r)) {
        if (e.getStartTime().isAfter(killed) && Math.abs(e.getDouble(HOST_SHARE) - 0.5) <= 0.02) {
          back = e.getStartTime();
          break;
        }
      }
      assertTrue(back != null, r.name + " never got its share back");
      long millis = back.toEpochMilli() - killed.toEpochMilli();
      System.out.println(r.name + ": share back " + millis + " ms after the kill");
      assertTrue(millis <= 2_000, r.name + ": share back " + millis + " ms after the kill");
    }
  }

  // ------------------------------------------------------------------------------ helpers

  private static String entry(long pid, long start, String rate, long heartbeat) {
    return "version=2\npid="
        + pid
        + "\nstart="
        + start
        + "\nrate="
        + rate
        + "\nheartbeat="
        + heartbeat
        + "\n";
  }

  private static List<String> lines(String text, String containing) {
    List<String> out = new ArrayList<>();
    for (String l : text.split("\n")) {
      if (l.contains(containing)) {
        out.add(l);
      }
    }
    return out;
  }
}
