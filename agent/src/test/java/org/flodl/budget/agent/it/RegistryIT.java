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
   * The pace is kept to a schedule ({@code --fixed-rate}): ranks at one pace consume alike at any
   * load, where a sleep per sample would add each rank's own scheduling delays to its rate.
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
        "--pace-ms=" + paceMs,
        "--fixed-rate");
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

  /**
   * Three ranks of one job at one pace; once the registry shows them consuming alike (their rates
   * within a tenth of their mean, and each rank beaten twice since: a premise waited for, however
   * slowly a loaded machine starts them), one is killed with SIGKILL. Each survivor held about a
   * third before and budgets with half after the killed rank's last heartbeat, as the product
   * recorded it (the rank's entry in the registry, the survivors' budget events); and the killed
   * rank's entry is removed from the registry. That removal is what makes the share come back at
   * once, whatever the load: a rank reads each entry's process before its heartbeat, and removes
   * the entry of a process that is gone at the first read, so its survivors' next heartbeats (1 s)
   * divide the host by two and their next probes (250 ms here) budget with it, "about 2 s"; an
   * entry whose process still seemed alive would stay in the registry until its heartbeat went
   * stale (3 s), and be skipped then but never removed. How long the share took to come back is
   * printed, not asserted: about 2 s, and up to 3 s on 2 cores at a load of 8, it is a reading of
   * the scheduler as much as of the agent, where the removal of the entry is the agent's alone.
   */
  @Test
  void aRankKilledWithMinus9IsSeenDeadAndHandsItsShareBack() throws Exception {
    Path root = freshRoot("kill");
    ChildJvm a = rank("kill-a", root, ",job=kill");
    ChildJvm b = rank("kill-b", root, ",job=kill");
    ChildJvm c = rank("kill-c", root, ",job=kill");
    Process pa = run(a, 2000, 15);
    Process pb = run(b, 2000, 15);
    Process pc = run(c, 2000, 15);
    Path folder = HostShareRegistry.folderFor(root, domain(), "kill");
    assertTrue(awaitEvenRates(folder, 3, 120), "the ranks never consumed alike: " + rates(folder));
    assertTrue(pc.isAlive(), "the rank to kill finished early");
    Path entry = folder.resolve(pc.pid() + ".rank");
    long beatBefore = heartbeat(entry);
    Instant killed = Instant.now();
    pc.destroyForcibly(); // SIGKILL: no exit hook runs, its entry stays behind
    assertTrue(pc.waitFor(60, TimeUnit.SECONDS));
    long beat = heartbeat(entry); // the last one, unless a survivor removed the entry already
    Instant lastBeat = Instant.ofEpochMilli(beat > 0 ? beat : beatBefore);
    // A survivor's next heartbeat reads the entry and removes it (within a second on a quiet
    // machine; the deadline is for a loaded one, not a bound on how soon).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (Files.exists(entry) && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertFalse(
        Files.exists(entry),
        "the killed rank's entry stayed in the registry: no survivor saw its process gone");
    for (ChildJvm.Result r : List.of(a.await(pa), b.await(pb))) {
      assertEquals(0, r.exitCode, r.toString());
      double before = -1; // the share the rank budgeted with when the third was killed
      for (RecordedEvent e : Shares.nativeBudgets(r)) {
        if (e.getStartTime().isBefore(killed)) {
          before = e.getDouble(HOST_SHARE);
        }
      }
      assertTrue(Math.abs(before - 1.0 / 3) <= 0.05, r.name + " had " + before + " before");
      Instant back = null;
      for (RecordedEvent e : Shares.nativeBudgets(r)) {
        if (e.getStartTime().isAfter(lastBeat) && e.getDouble(HOST_SHARE) >= 0.45) {
          back = e.getStartTime();
          break;
        }
      }
      assertTrue(back != null, r.name + " never got its share back");
      long millis = back.toEpochMilli() - lastBeat.toEpochMilli();
      // Printed, not asserted (see the method's comment): the entry's removal above is the proof
      // that the share came back for the rank's death, not for its heartbeat's age.
      System.out.println(r.name + ": share back " + millis + " ms after the last heartbeat");
    }
  }

  /**
   * Waits until {@code ranks} entries in {@code folder} have rates within a tenth of their mean
   * (and above 0), and every rank has beaten twice more since they first did so: each rank has then
   * read the others' entries and taken its share of three, and budgeted with it. Returns false when
   * that does not come about within {@code seconds}.
   */
  private static boolean awaitEvenRates(Path folder, int ranks, long seconds) throws Exception {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    long evenSince = -1;
    while (System.nanoTime() < deadline) {
      List<Double> r = rates(folder);
      double mean = r.stream().mapToDouble(Double::doubleValue).sum() / Math.max(1, r.size());
      boolean even =
          r.size() == ranks
              && mean > 0
              && r.stream().allMatch(x -> Math.abs(x - mean) <= 0.1 * mean);
      if (!even) {
        evenSince = -1;
      } else if (evenSince < 0) {
        evenSince = System.currentTimeMillis();
      } else if (oldestHeartbeat(folder) >= evenSince + 2_000) {
        return true;
      }
      Thread.sleep(100);
    }
    return false;
  }

  /** Returns the oldest heartbeat of the rank entries in {@code folder} (epoch milliseconds). */
  private static long oldestHeartbeat(Path folder) throws IOException {
    long oldest = Long.MAX_VALUE;
    try (java.util.stream.Stream<Path> files = Files.list(folder)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.toString().endsWith(".rank")) {
          oldest = Math.min(oldest, Math.max(0, heartbeat(f)));
        }
      }
    }
    return oldest;
  }

  /** Returns the rates of the rank entries in {@code folder} (those that can be read). */
  private static List<Double> rates(Path folder) throws IOException {
    List<Double> rates = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return rates;
    }
    try (java.util.stream.Stream<Path> files = Files.list(folder)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String rate = field(f, "rate");
        if (f.toString().endsWith(".rank") && rate != null) {
          rates.add(Double.parseDouble(rate));
        }
      }
    }
    return rates;
  }

  /** Returns the heartbeat a rank entry says (epoch milliseconds), or -1 when it is gone. */
  private static long heartbeat(Path entry) {
    String beat = field(entry, "heartbeat");
    return beat == null ? -1 : Long.parseLong(beat);
  }

  /** Returns the value of {@code key} in a rank entry, or null when it cannot be read. */
  private static String field(Path entry, String key) {
    try {
      for (String line : Files.readAllLines(entry)) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1).trim();
        }
      }
    } catch (IOException | RuntimeException gone) {
      return null;
    }
    return null;
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
