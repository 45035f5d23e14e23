package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.FILE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.RecordingProblemEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The agent's own recording ({@code record=FILE}) survives what starves a JVM: a full disk is one
 * line and a {@code flodl.agent.RecordingProblem} event, and the job runs on. (A {@code kill -9}:
 * {@link RecordingsIT}.)
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class RecordingCrashIT {

  @Test
  void aFullDiskIsOneLineAndAnEventAndTheJobRunsOn() throws Exception {
    Path mount = ChildJvm.WORK.resolve("full-disk").toAbsolutePath();
    Files.createDirectories(mount);
    Process m =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mount.toString())
            .redirectErrorStream(true)
            .start();
    String mountOut = new String(m.getInputStream().readAllBytes());
    Preconditions.require(
        m.waitFor(30, TimeUnit.SECONDS) && m.exitValue() == 0,
        "cannot mount a 64 KiB tmpfs here (" + mountOut.trim() + "): needs root");
    try {
      Path sites = Sites.write("store", Sites.STORE);
      Path file = mount.resolve("full.jfr");
      ChildJvm.Result r =
          ChildJvm.on("record-full-disk", Jdk.JDK17)
              .agent("sites=" + sites + ",record=" + file)
              .record()
              .timeout(120)
              .run("com.acme.it.CacheApp", "--samples=600", "--sample-bytes=1024", "--pace-ms=10");
      assertEquals(0, r.exitCode, r.toString());
      assertTrue(r.stdout.contains("DONE"), r.toString());
      List<String> lines =
          r.stderr
              .lines()
              .filter(l -> l.startsWith("flodl-budget:") && l.contains("record="))
              .toList();
      assertEquals(1, lines.size(), r.stderr);
      assertTrue(lines.get(0).contains("writing the recording failed"), lines.get(0));
      List<RecordedEvent> problems = r.events(RecordingProblemEvent.NAME);
      assertFalse(problems.isEmpty(), "no RecordingProblem event in the JVM's other recording");
      assertEquals(file.toString(), problems.get(0).getString(FILE));
    } finally {
      new ProcessBuilder("umount", mount.toString())
          .inheritIO()
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * A recording on another file system than Flight Recorder's repository (a tmpfs here, the
   * repository in /tmp): the chunks are copied, only what is new each second, and a {@code kill -9}
   * still leaves them for {@code report}.
   */
  @Test
  void acrossFileSystemsTheChunksAreCopiedAndAKilledRunIsStillRead() throws Exception {
    Path mount = ChildJvm.WORK.resolve("other-fs").toAbsolutePath();
    Files.createDirectories(mount);
    Process m =
        new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=256m", "tmpfs", mount.toString())
            .redirectErrorStream(true)
            .start();
    String mountOut = new String(m.getInputStream().readAllBytes());
    Preconditions.require(
        m.waitFor(30, TimeUnit.SECONDS) && m.exitValue() == 0,
        "cannot mount a tmpfs here (" + mountOut.trim() + "): needs root");
    try {
      Path sites = Sites.write("hammer", RecordingsIT.HAMMER);
      Path file = mount.resolve("copied.jfr");
      ChildJvm child =
          ChildJvm.on("record-other-fs", Jdk.JDK17)
              .jvm("-Xmx256m")
              .agent("sites=" + sites + ",record=" + file);
      Process app =
          child.start("com.acme.it.HammerApp", "--seconds=600", "--threads=1", "--window=4000");
      RecordingsIT.awaitLine(child, "READY", 60);
      Path chunks = mount.resolve("copied.jfr.chunks");
      long end = System.currentTimeMillis() + 30_000;
      while (System.currentTimeMillis() < end && !hasSummaries(chunks)) {
        Thread.sleep(500);
      }
      assertTrue(app.isAlive(), "the app ended: " + child.stdoutSoFar());
      app.destroyForcibly();
      assertTrue(app.waitFor(10, TimeUnit.SECONDS));
      List<Path> files = RecordingsIT.chunkFiles(chunks);
      assertFalse(files.isEmpty(), "no chunk copied to " + chunks);
      for (Path f : files) {
        assertEquals(1, (int) Files.getAttribute(f, "unix:nlink"), "a copy, not a link: " + f);
      }
      String out = ChildJvm.report(file);
      assertTrue(out.contains("was never written") && out.contains("hammer"), out);
    } finally {
      new ProcessBuilder("umount", "-l", mount.toString())
          .inheritIO()
          .start()
          .waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static boolean hasSummaries(Path chunks) throws Exception {
    if (!Files.isDirectory(chunks)) {
      return false;
    }
    for (Path f : RecordingsIT.chunkFiles(chunks)) {
      try {
        for (RecordedEvent e : RecordingsIT.readRepaired(f)) {
          if (e.getEventType().getName().equals(SiteSummaryEvent.NAME)) {
            return true;
          }
        }
      } catch (java.io.IOException | RuntimeException notYet) {
        // a copy caught between the recorder's flushes: the next look reads it
      }
    }
    return false;
  }
}
