package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The agent's own recording ({@code record=FILE}) survives what kills or starves a JVM (issue
 * 16): a {@code kill -9} five seconds in leaves a snapshot that {@code report} reads, with the
 * first seconds of decisions; a full disk is one line and a {@code flodl.agent.RecordingProblem}
 * event, and the job runs on.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class RecordingCrashIT {

  @Test
  void aKillMinus9FiveSecondsInLeavesARecordingReportReads() throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    Path file = ChildJvm.WORK.resolve("killed.jfr").toAbsolutePath();
    Path part = file.resolveSibling("killed.jfr.part");
    ChildJvm child = ChildJvm.on("record-killed", Jdk.JDK17)
        .agent("sites=" + sites + ",record=" + file);
    Instant launched = Instant.now();
    Process app = child.start("com.acme.it.CacheApp", "--samples=3000", "--sample-bytes=1024",
        "--pace-ms=10");
    Thread.sleep(5_000);
    assertTrue(app.isAlive(), "the app ended before the kill: " + child.stdoutSoFar());
    app.destroyForcibly(); // SIGKILL: no shutdown hook, no dump at exit
    assertTrue(app.waitFor(10, TimeUnit.SECONDS));
    assertTrue(!Files.exists(file) || Files.size(file) == 0, "a killed JVM wrote no file");
    assertTrue(Files.isRegularFile(part), "no snapshot beside " + file);

    List<RecordedEvent> admissions = RecordingFile.readAllEvents(part).stream()
        .filter(e -> e.getEventType().getName().equals("flodl.budget.CacheAdmission")).toList();
    assertFalse(admissions.isEmpty(), "no decision in the snapshot");
    Instant first = admissions.get(0).getStartTime();
    Instant last = admissions.get(admissions.size() - 1).getStartTime();
    System.out.println("snapshot: " + admissions.size() + " decisions over "
        + Duration.between(first, last).toMillis() + " ms; first "
        + Duration.between(launched, first).toMillis() + " ms after launch");
    assertTrue(Duration.between(first, last).toMillis() >= 3_000,
        "the snapshot holds " + Duration.between(first, last).toMillis() + " ms of decisions");

    Process report = new ProcessBuilder(Jdk.JDK17.java().toString(), "-jar",
        ChildJvm.AGENT_JAR.toAbsolutePath().toString(), "report", file.toString())
        .redirectErrorStream(true).start();
    String out = new String(report.getInputStream().readAllBytes());
    assertTrue(report.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, report.exitValue(), out);
    assertTrue(out.contains("was never written") && out.contains("samples"), out);
  }

  @Test
  void aFullDiskIsOneLineAndAnEventAndTheJobRunsOn() throws Exception {
    Path mount = ChildJvm.WORK.resolve("full-disk").toAbsolutePath();
    Files.createDirectories(mount);
    Process m = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs",
        mount.toString()).redirectErrorStream(true).start();
    String mountOut = new String(m.getInputStream().readAllBytes());
    if (!m.waitFor(30, TimeUnit.SECONDS) || m.exitValue() != 0) {
      System.out.println("SKIPPED aFullDiskIsOneLine: cannot mount a 64 KiB tmpfs here ("
          + mountOut.trim() + ")");
      return;
    }
    try {
      Path sites = Sites.write("store", Sites.STORE);
      Path file = mount.resolve("full.jfr");
      ChildJvm.Result r = ChildJvm.on("record-full-disk", Jdk.JDK17)
          .agent("sites=" + sites + ",record=" + file).record().timeout(120)
          .run("com.acme.it.CacheApp", "--samples=600", "--sample-bytes=1024", "--pace-ms=10");
      assertEquals(0, r.exitCode, r.toString());
      assertTrue(r.stdout.contains("DONE"), r.toString());
      List<String> lines = r.stderr.lines()
          .filter(l -> l.startsWith("flodl-budget:") && l.contains("record=")).toList();
      assertEquals(1, lines.size(), r.stderr);
      assertTrue(lines.get(0).contains("writing the recording failed"), lines.get(0));
      List<RecordedEvent> problems = r.events("flodl.agent.RecordingProblem");
      assertFalse(problems.isEmpty(), "no RecordingProblem event in the JVM's other recording");
      assertEquals(file.toString(), problems.get(0).getString("file"));
    } finally {
      new ProcessBuilder("umount", mount.toString()).inheritIO().start().waitFor(30,
          TimeUnit.SECONDS);
    }
  }
}
