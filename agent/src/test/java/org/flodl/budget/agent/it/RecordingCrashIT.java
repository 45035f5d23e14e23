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
 * The agent's own recording ({@code record=FILE}) survives what starves a JVM: a full disk is
 * one line and a {@code flodl.agent.RecordingProblem} event, and the job runs on. (A {@code kill
 * -9}: {@link RecordingsIT}.)
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class RecordingCrashIT {

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
