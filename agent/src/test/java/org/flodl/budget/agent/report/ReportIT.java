package org.flodl.budget.agent.report;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.ReleaseEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.internal.EventArray;
import org.openjdk.jmc.flightrecorder.internal.FlightRecordingLoader;

/**
 * The packaged agent the way a user runs it: an unbounded cache at -Xmx256m under {@code
 * -javaagent:flodl-budget-agent.jar=sites=…,record=budget.jfr}, then {@code java -jar
 * flodl-budget-agent.jar report budget.jfr --html report.html}. The report's numbers are the
 * recording's, the recording opens in Mission Control's parser, and a file that is not a recording
 * is exit code 2 through the jar's own command line.
 */
class ReportIT {
  static final Path AGENT_JAR =
      Path.of(System.getProperty("flodl.it.agentJar", "target/flodl-budget-agent.jar"))
          .toAbsolutePath();
  static final Path APP_CLASSES =
      Path.of(System.getProperty("flodl.it.appClasses", "target/test-classes")).toAbsolutePath();
  static final Path WORK =
      Path.of(System.getProperty("flodl.it.workDir", "target/it-work"))
          .resolve("report")
          .toAbsolutePath();
  static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
  static final String SITES =
      "site.samples.kind = cache-admit\n"
          + "site.samples.method = com.acme.it.SampleStore#put(java.lang.Object,java.lang.Object)\n"
          + "site.samples.value = 1\n"
          + "site.samples.release = com.acme.it.SampleStore#evict\n";

  static Path recording;
  static List<RecordedEvent> events;

  record Run(int code, String out, String err) {}

  static Run java(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(JAVA));
    command.addAll(Arrays.asList(args));
    Path out = Files.createTempFile(WORK, "out", ".txt");
    Path err = Files.createTempFile(WORK, "err", ".txt");
    Process p =
        new ProcessBuilder(command)
            .directory(WORK.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    if (!p.waitFor(300, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("timed out: " + command);
    }
    return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
  }

  @BeforeAll
  static void train() throws Exception {
    Files.createDirectories(WORK);
    Path sites = WORK.resolve("sites.properties");
    Files.writeString(sites, SITES);
    recording = WORK.resolve("budget.jfr");
    Files.deleteIfExists(recording);
    Run app =
        java(
            "-Xmx256m",
            "-javaagent:" + AGENT_JAR + "=sites=" + sites + ",record=" + recording,
            "-cp",
            APP_CLASSES.toString(),
            "com.acme.it.CacheApp",
            "--samples=400",
            "--evict-at-end",
            "--pace-ms=2");
    assertEquals(0, app.code(), app.out() + app.err());
    assertTrue(Files.isRegularFile(recording), "record= wrote no recording: " + app.err());
    events = RecordingFile.readAllEvents(recording);
  }

  static long sum(String name, String field, String decisionPrefix) {
    return events.stream()
        .filter(e -> e.getEventType().getName().equals(name))
        .filter(e -> decisionPrefix == null || e.getString(DECISION).startsWith(decisionPrefix))
        .mapToLong(e -> e.getLong(field))
        .sum();
  }

  @Test
  void theReportOfTheAgentsRecordingCarriesItsNumbers() throws Exception {
    Path html = WORK.resolve("report.html");
    Files.deleteIfExists(html);
    Run run =
        java(
            "-jar",
            AGENT_JAR.toString(),
            "report",
            recording.toString(),
            "--html",
            html.toString());
    assertEquals(0, run.code(), run.err());
    Matcher m = Pattern.compile("(?m)^  samples +heap .*$").matcher(run.out());
    assertTrue(m.find(), run.out());
    String[] row = m.group().trim().split(" {2,}");
    // The ledger is the site summaries; the sampled per-decision events' weights add up to it.
    long admitted = sum(EventReader.SITE_SUMMARY, ADMISSIONS, null);
    long declined = sum(EventReader.SITE_SUMMARY, DECLINES, null);
    assertEquals(400, admitted + declined, "one decision per put");
    assertEquals(admitted, sum(EventReader.CACHE_ADMISSION, DECISIONS, Decision.ADMIT.name()));
    assertEquals(declined, sum(EventReader.CACHE_ADMISSION, DECISIONS, Decision.DECLINE.name()));
    assertTrue(admitted > 0 && declined > 0, "at -Xmx256m the cache keeps part of 400 MiB");
    assertEquals(Format.count(admitted), row[2], run.out());
    assertEquals(Format.count(declined), row[3], run.out());
    assertEquals(
        Format.bytes(sum(EventReader.SITE_SUMMARY, ADMITTED_BYTES, null)), row[5], run.out());
    assertEquals(
        Format.bytes(sum(EventReader.SITE_SUMMARY, DECLINED_BYTES, null)), row[6], run.out());
    assertEquals(
        Format.bytes(sum(EventReader.SITE_SUMMARY, RELEASED_BYTES, null)), row[7], run.out());
    assertTrue(
        run.out().contains("record "), "the effective configuration lists record=: " + run.out());
    assertTrue(
        Pattern.compile("(?m)^Instrumented: \\d+ WOVEN").matcher(run.out()).find(), run.out());
    String page = Files.readString(html, StandardCharsets.UTF_8);
    assertTrue(page.contains("aria-label=\"heap tier: peak "), "the heap chart");
    assertTrue(
        page.contains(
            "<td>samples</td><td class=\"l\">heap</td><td>" + Format.count(admitted) + "</td>"));
  }

  @Test
  void aFileThatIsNotARecordingIsExitCodeTwoThroughTheJar() throws Exception {
    Path notes = WORK.resolve("notes.txt");
    Files.writeString(notes, "not a recording\n");
    Run run = java("-jar", AGENT_JAR.toString(), "report", notes.toString());
    assertEquals(2, run.code(), run.out() + run.err());
    assertTrue(run.err().contains("is not a JFR recording"), run.err());
  }

  @Test
  void theAgentsRecordingOpensInMissionControlsParser() throws Exception {
    IItemCollection items = JfrLoaderToolkit.loadEvents(recording.toFile());
    Map<String, String> labels = new HashMap<>();
    for (IItemIterable iterable : items) {
      if (iterable.getType().getIdentifier().startsWith("flodl.")) {
        labels.put(iterable.getType().getIdentifier(), iterable.getType().getName());
      }
    }
    assertEquals("Cache Admission", labels.get(CacheAdmissionEvent.NAME), labels.toString());
    assertEquals("Release", labels.get(ReleaseEvent.NAME), labels.toString());
    assertEquals("Agent Configuration", labels.get(ConfigurationEvent.NAME), labels.toString());
    assertEquals("Instrumented", labels.get(InstrumentedEvent.NAME), labels.toString());
    try (InputStream in = Files.newInputStream(recording)) {
      for (EventArray array : FlightRecordingLoader.loadStream(in, false, false).getArrays()) {
        String id = array.getType().getIdentifier();
        if (id.startsWith("flodl.budget.")) {
          assertEquals(List.of("flodl", "Budget"), Arrays.asList(array.getTypeCategory()), id);
        }
      }
    }
  }
}
