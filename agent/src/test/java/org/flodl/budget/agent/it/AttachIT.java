package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code java -jar flodl-budget-agent.jar attach PID args} on a running app: its cache class,
 * loaded and in use, is retransformed, and decisions are recorded from then on, no restart.
 */
class AttachIT {

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void attachingStartsRecordingDecisionsWithoutARestart(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm child = ChildJvm.on("attach-app", jdk).record();
    Process app = child.start("com.acme.it.CacheApp", "--samples=400", "--sample-bytes=65536",
        "--pace-ms=15", "--ready", "--evict-at-end");
    String pid = null;
    for (int i = 0; i < 400 && pid == null; i++) {
      for (String line : child.stdoutSoFar().split("\n")) {
        if (line.startsWith("READY ")) {
          pid = line.substring(6).trim();
        }
      }
      Thread.sleep(25);
    }
    assertTrue(pid != null, "the app never said READY");
    List<String> cmd = new ArrayList<>(List.of(jdk.java().toString(), "-jar",
        ChildJvm.AGENT_JAR.toAbsolutePath().toString(), "attach", pid, "sites=" + sites));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    Process attach = pb.start();
    String attachOut = new String(attach.getInputStream().readAllBytes());
    assertTrue(attach.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, attach.exitValue(), attachOut);
    assertTrue(attachOut.contains("attached to " + pid), attachOut);

    ChildJvm.Result r = child.await(app);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("400", r.value("DELIVERED"));
    List<RecordedEvent> admissions = r.events("flodl.budget.CacheAdmission");
    assertTrue(admissions.size() > 50 && admissions.size() < 400,
        "decisions from the attach on, not before: " + admissions.size());
    assertEquals("heap=0", r.value("HELD_AFTER_EVICT"), r.toString());
    assertTrue(r.events("flodl.agent.Instrumented").stream()
        .anyMatch(e -> e.getString("outcome").equals("WOVEN")));
  }
}
