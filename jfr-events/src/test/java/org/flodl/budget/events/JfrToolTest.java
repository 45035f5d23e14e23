package org.flodl.budget.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JDK's own {@code jfr} tool on the recorded decisions: {@code jfr print --events
 * flodl.budget.CacheAdmission} prints each admission with its fields and units, {@code jfr summary}
 * counts every flodl type, {@code jfr metadata} shows labels.
 */
class JfrToolTest {
  static Path jfr;
  static Path recording;

  @BeforeAll
  static void locate() throws Exception {
    jfr = Path.of(System.getProperty("java.home"), "bin", "jfr");
    Assumptions.assumeTrue(Files.isExecutable(jfr), "this JDK ships no jfr tool at " + jfr);
    DecisionScenario.shared();
    recording = DecisionScenario.sharedFile();
  }

  static String run(String... args) throws IOException, InterruptedException {
    List<String> command = new java.util.ArrayList<>(List.of(jfr.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), out);
    return out;
  }

  @Test
  void printShowsEachAdmissionWithItsFields() throws Exception {
    String out = run("print", "--events", CacheAdmissionEvent.NAME, recording.toString());
    assertEquals(6, out.split("flodl.budget.CacheAdmission \\{", -1).length - 1, out);
    assertTrue(out.contains("decision = \"ADMIT_MATERIALIZED\""), out);
    assertTrue(out.contains("decision = \"DECLINE\""), out);
    assertTrue(out.contains("site = \"samples\""), out);
    // @DataAmount: the tool prints bytes with their unit, e.g. "97.7 kB" for 100,000 bytes
    assertTrue(out.matches("(?s).*chargedBytes = 97\\.7 kB.*"), out);
  }

  @Test
  void summaryCountsEveryFlodlType() throws Exception {
    String out = run("summary", recording.toString());
    for (String name : RecordedEventsTest.CATEGORIES.keySet()) {
      assertTrue(out.contains(name), name + " missing from\n" + out);
    }
    assertTrue(out.matches("(?s).*flodl\\.budget\\.CacheAdmission\\s+6\\s.*"), out);
  }

  @Test
  void metadataShowsLabels() throws Exception {
    String out = run("metadata", recording.toString());
    assertTrue(out.contains("@Label(\"Cache Admission\")"), out);
    assertTrue(out.contains("@Category({\"flodl\", \"Budget\"})"), out);
  }
}
