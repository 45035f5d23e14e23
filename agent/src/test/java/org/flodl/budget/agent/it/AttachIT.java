package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code java -jar flodl-budget-agent.jar attach PID args} on a running app: its cache class,
 * loaded and in use, is retransformed, and decisions are recorded from then on, no restart.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class AttachIT {

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void attachingStartsRecordingDecisionsWithoutARestart(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm child = ChildJvm.on("attach-app", jdk).record();
    // A handshake, no pacing: the app puts 100 samples, says PAUSED and waits for the agent's
    // MBean; the agent attached, exactly the 300 samples after are decided.
    Process app =
        child.start(
            "com.acme.it.CacheApp",
            "--samples=400",
            "--sample-bytes=65536",
            "--wait-for-agent-at=100",
            "--evict-at-end");
    String pid = app.pid() + "";
    String line = null;
    for (int i = 0; i < 2400 && line == null && app.isAlive(); i++) {
      line = child.stdoutSoFar().contains("PAUSED 100") ? "PAUSED" : null;
      Thread.sleep(25);
    }
    assertTrue(line != null, "the app never paused: " + child.stdoutSoFar());
    List<String> cmd =
        new ArrayList<>(
            List.of(
                jdk.java().toString(),
                "-jar",
                ChildJvm.AGENT_JAR.toAbsolutePath().toString(),
                "attach",
                pid,
                "sites=" + sites));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Process attach = pb.start();
    String attachOut = new String(attach.getInputStream().readAllBytes());
    assertTrue(attach.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, attach.exitValue(), attachOut);
    assertTrue(attachOut.contains("attached to " + pid), attachOut);

    ChildJvm.Result r = child.await(app);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("400", r.value("DELIVERED"));
    assertTrue(r.stdout.contains("AGENT IS HERE"), r.toString());
    // Each event stands for the decisions since its kind's last (the recording here records every
    // one, throttle=off), and the site summaries count every decision.
    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(
        300,
        admissions.stream().mapToLong(e -> e.getLong(DECISIONS)).sum(),
        "decisions from the attach on, not before");
    assertEquals(
        300,
        r.events(SiteSummaryEvent.NAME).stream()
            .mapToLong(e -> e.getLong(ADMISSIONS) + e.getLong(DECLINES))
            .sum());
    assertEquals("heap=0", r.value("HELD_AFTER_EVICT"), r.toString());
    assertTrue(
        r.events(InstrumentedEvent.NAME).stream()
            .anyMatch(e -> e.getString(OUTCOME).equals("WOVEN")));
  }

  /**
   * Attached with no argument, the agent does what the bare flag does: the Caffeine cache the job
   * is already filling is retransformed and observed, nothing changes (the job dies of the heap at
   * -Xmx256m as without the agent), and as it dies the agent prints the block with the flag that
   * budgets the cache, naming the jar the attach loaded by its absolute path.
   */
  @org.junit.jupiter.api.Test
  void attachingWithNoArgumentObservesAsTheBareFlagDoes() throws Exception {
    ChildJvm child =
        ChildJvm.on("attach-bare", Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve("caffeine-current"))
            .jvm("-Xmx256m")
            .timeout(180);
    Process app =
        child.start(
            "com.acme.libs.CacheDoors",
            "--door=caffeine-compute",
            "--samples=600",
            "--wait-for-agent-at=20");
    for (int i = 0; i < 2400 && !child.stdoutSoFar().contains("PAUSED 20") && app.isAlive(); i++) {
      Thread.sleep(25);
    }
    assertTrue(child.stdoutSoFar().contains("PAUSED 20"), "never paused: " + child.stdoutSoFar());
    String[] attached = attach(Long.toString(app.pid()));
    assertEquals("0", attached[0], attached[1]);

    ChildJvm.Result r = child.await(app);
    assertTrue(r.stdout.contains("AGENT IS HERE"), r.toString());
    assertNotEquals(0, r.exitCode, "the job's outcome unchanged: " + r);
    assertTrue(r.stderr.contains("OutOfMemoryError"), r.toString());
    List<String> said = r.stderr.lines().filter(l -> l.startsWith("flodl-budget:")).toList();
    assertEquals(3, said.size(), "one block, as the job dies: " + said);
    assertEquals(
        "flodl-budget: observed only, nothing changed (no argument chose what to budget);"
            + " what a budget would have done:",
        said.get(0));
    assertTrue(
        said.get(1).startsWith("flodl-budget:   caffeine: held up to ")
            && said.get(1).endsWith("[sure: the caffeine preset's cache]"),
        said.get(1));
    assertEquals(
        "flodl-budget: budget it with: -javaagent:"
            + ChildJvm.AGENT_JAR.toAbsolutePath()
            + "=presets=caffeine",
        said.get(2));
  }

  /** Starts {@code main} with {@code args} in {@code child} and returns its pid once READY. */
  private static String ready(ChildJvm child, Process app) throws Exception {
    for (int i = 0; i < 800; i++) {
      for (String line : child.stdoutSoFar().split("\n")) {
        if (line.startsWith("READY ")) {
          return line.substring(6).trim();
        }
      }
      if (!app.isAlive()) {
        break;
      }
      Thread.sleep(25);
    }
    throw new AssertionError("the app never said READY: " + child.stdoutSoFar());
  }

  /** Runs {@code attach PID [args]}; returns its exit status and what it printed. */
  private static String[] attach(String pid, String... args) throws Exception {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Jdk.JDK17.java().toString(),
                "-jar",
                ChildJvm.AGENT_JAR.toAbsolutePath().toString(),
                "attach",
                pid));
    cmd.addAll(List.of(args));
    Process attach = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(attach.getInputStream().readAllBytes());
    assertTrue(attach.waitFor(60, TimeUnit.SECONDS));
    return new String[] {Integer.toString(attach.exitValue()), out};
  }

  /**
   * The command exits non-zero with the target's own line when the target refused the arguments (a
   * typo; strict with a device for a sites file), ignored them (already running) or failed (a JVM
   * whose heap is full); the target runs on and prints no stack trace.
   */
  @org.junit.jupiter.api.Test
  void attachExitsNonZeroWithTheTargetsReason() throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm child = ChildJvm.on("attach-outcomes", Jdk.JDK17);
    // Alive for every attach below, however long they take: the app waits on its stdin to exit.
    Process app =
        child.start(
            "com.acme.it.CacheApp",
            "--samples=1500",
            "--sample-bytes=1024",
            "--ready",
            "--await-stdin");
    String pid = ready(child, app);

    String[] typo = attach(pid, "sites=" + sites + ",ram_max_usag=0.5");
    assertEquals("1", typo[0], typo[1]);
    assertTrue(
        typo[1].contains("refused the attach") && typo[1].contains("'ram_max_usag'"), typo[1]);
    String[] device = attach(pid, "sites=/dev/zero,strict=true");
    assertEquals("1", device[0], device[1]);
    assertTrue(
        device[1].contains("refused the attach")
            && device[1].contains("not a regular file")
            && device[1].contains("strict=true"),
        device[1]);
    String[] first = attach(pid, "sites=" + sites);
    assertEquals("0", first[0], first[1]);
    assertTrue(first[1].contains("attached to " + pid), first[1]);
    String[] again = attach(pid, "sites=" + sites + ",ram_max_usage=0.5");
    assertEquals("1", again[0], again[1]);
    assertTrue(
        again[1].contains("ignored the attach") && again[1].contains("already running"), again[1]);
    app.getOutputStream().write('\n');
    app.getOutputStream().close();
    ChildJvm.Result r = child.await(app);
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
    assertFalse(
        r.stderr.contains("\tat ") || r.stderr.contains("Exception") || r.stderr.contains("JPLIS"),
        "no stack trace on the target's stderr:\n" + r.stderr);

    ChildJvm full = ChildJvm.on("attach-full-heap", Jdk.JDK17).jvm("-Xmx48m");
    Process fullApp = full.start("com.acme.it.FullHeap", "30");
    String fullPid = ready(full, fullApp);
    // The agent's own start fits the heap's 1 MiB reserve (a sites file is read into what it
    // holds, not a buffer of the largest size allowed); a recording's start does not.
    String[] failed =
        attach(
            fullPid,
            "sites="
                + sites
                + ",record="
                + ChildJvm.WORK.resolve("full-heap.jfr").toAbsolutePath());
    fullApp.destroy();
    ChildJvm.Result fr = full.await(fullApp);
    assertEquals("1", failed[0], failed[1] + "\ntarget:\n" + fr);
    assertTrue(
        failed[1].contains("failed the attach") && failed[1].contains("OutOfMemoryError"),
        failed[1]);
    assertFalse(
        fr.stderr.contains("\tat ") || fr.stderr.contains("JPLIS"),
        "no stack trace on the target's stderr:\n" + fr.stderr);
  }
}
