package org.flodl.budget.agent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Recording;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report FILE [--html OUT]} on recordings of real policy decisions: the text reproduces the
 * scenario's own tallies (from per-decision events, and from site summaries alone when those are
 * off), the depths and their reasons, the configuration and the weaving; the page is
 * self-contained; an empty recording says so and a file that is not one is exit code 2.
 */
class ReportCommandTest {
  @TempDir static Path dir;
  static TrainingScenario scenario;
  static Path recording;

  @BeforeAll
  static void record() throws Exception {
    recording = dir.resolve("budget.jfr");
    scenario =
        TrainingScenario.record(
            recording, 120, Duration.ofMillis(600), Duration.ofMillis(20), true);
  }

  record Run(int code, String out, String err) {}

  static Run report(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        ReportCommand.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Returns the cells of the report's row for the cache site, split on runs of two spaces. */
  static String[] siteRow(String text) {
    Matcher m = Pattern.compile("(?m)^  samples +heap .*$").matcher(text);
    assertTrue(m.find(), text);
    return Arrays.stream(m.group().trim().split(" {2,}")).toArray(String[]::new);
  }

  static void assertTallies(TrainingScenario s, String[] row) {
    assertEquals("samples", row[0]);
    assertEquals("heap", row[1]);
    assertEquals(Format.count(s.admissions), row[2], "admitted");
    assertEquals(Format.count(s.declines), row[3], "declined");
    assertEquals(Format.count(s.materialized), row[4], "materialized");
    assertEquals(Format.bytes(s.admittedBytes), row[5], "bytes admitted");
    assertEquals(Format.bytes(s.declinedBytes), row[6], "bytes declined");
    assertEquals(Format.bytes(s.releasedBytes), row[7], "released");
    assertTrue(row[8].startsWith(Format.bytes(s.peakHeld) + " / "), "peak held " + row[8]);
  }

  @Test
  void theScenarioDeclinedSomeAndMaterializedSome() {
    assertTrue(
        scenario.admissions > 0 && scenario.declines > 0 && scenario.materialized > 0,
        "the scenario must exercise every decision");
  }

  @Test
  void textReportsEachCacheSiteFromThePerDecisionEvents() {
    Run run = report(recording.toString());
    assertEquals(0, run.code(), run.err());
    assertEquals("", run.err());
    String[] row = siteRow(run.out());
    assertTallies(scenario, row);
    int share = Integer.parseInt(row[9].replace("%", ""));
    assertTrue(
        share <= 100, "an admission never holds past the budget it was taken against: " + row[9]);
    assertTrue(
        run.out()
            .contains("samples: released by RELEASE_SITE " + Format.bytes(scenario.releasedBytes)),
        run.out());
  }

  @Test
  void textReportsDepthsWithTheirReasonsAndTheConfiguration() {
    String out = report(recording.toString()).out();
    assertTrue(
        out.contains(
            "djl (cuda:0): " + scenario.epochs + " decisions, last depth " + scenario.lastDepth),
        out);
    assertTrue(
        Pattern.compile(
                "(?m)^ +depth 8 \\(asked 8\\) +x\\d+ +REQUESTED +prefetch=cap kept the request")
            .matcher(out)
            .find(),
        out);
    assertTrue(
        Pattern.compile("(?m)^ +depth 0 \\(asked 8\\) +x\\d+ +SYNC_FALLBACK ").matcher(out).find(),
        out);
    assertTrue(
        Pattern.compile("(?m)^ +depth [1-7] \\(asked 8\\) +x\\d+ +CAPACITY ").matcher(out).find(),
        out);
    assertTrue(
        Pattern.compile("(?m)^Reader ring\\n  reader: " + scenario.epochs + " decisions")
            .matcher(out)
            .find(),
        out);
    assertTrue(
        Pattern.compile("(?m)^  heap_max_usage +0\\.5 +AGENT_ARGS$").matcher(out).find(), out);
    assertTrue(
        Pattern.compile("(?m)^  vram_probe +fixed:3G/6360465408 +SYSTEM_PROPERTY$")
            .matcher(out)
            .find(),
        out);
    assertTrue(
        Pattern.compile(
                "(?m)^  budget computed for heap 120 times, last [0-9.]+ MiB = 50% of \\([0-9.]+ MiB available \\+ [0-9.]+ MiB held\\)$")
            .matcher(out)
            .find(),
        out);
    assertTrue(out.contains("Instrumented: 2 WOVEN, 1 FAILED"), out);
    assertTrue(out.contains("FAILED com.acme.data.Evictor (site samples): no method evict"), out);
    assertTrue(
        Pattern.compile(
                "(?m)^  heap +[0-9.]+ MiB / [0-9.]+ MiB +\\d+% +[0-9.]+ MiB +\\d+ probe readings and the decisions$")
            .matcher(out)
            .find(),
        out);
  }

  @Test
  void withThePerDecisionEventsOffTheSummariesTellTheSameStory(@TempDir Path here)
      throws Exception {
    Path file = here.resolve("summary.jfr");
    TrainingScenario s =
        TrainingScenario.record(file, 60, Duration.ofMillis(300), Duration.ofMillis(20), false);
    Run run = report(file.toString());
    assertEquals(0, run.code(), run.err());
    assertTallies(s, siteRow(run.out()));
    assertTrue(run.out().contains("samples: counts from "), run.out());
    assertTrue(run.out().contains("site summaries (per-decision events off)"), run.out());
  }

  @Test
  void htmlIsOneSelfContainedPageWithTheCharts(@TempDir Path here) throws Exception {
    Path html = here.resolve("report.html");
    Run run = report(recording.toString(), "--html", html.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(
        run.out().endsWith("HTML report written to " + html + System.lineSeparator()), run.out());
    String page = Files.readString(html);
    assertTrue(page.startsWith("<!DOCTYPE html>"));
    assertFalse(page.contains("<script"), "no script");
    assertFalse(Pattern.compile("(?i)(src|href)\\s*=").matcher(page).find(), "nothing fetched");
    assertFalse(page.contains("@import") || page.contains("url("), "no external CSS");
    String withoutNamespace = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
    assertFalse(
        withoutNamespace.contains("http://") || withoutNamespace.contains("https://"),
        "no network");
    assertTrue(page.contains("aria-label=\"heap tier: peak "), "held against budget chart");
    assertTrue(page.contains(">available</text>"), "the probe's available line in the tier chart");
    assertTrue(page.contains("aria-label=\"Prefetch depth, in batches"), "depth chart");
    assertTrue(page.contains("aria-label=\"VRAM: used and total\""), "VRAM chart");
    assertEquals(3, count(page, "<svg "), "heap, VRAM and depth charts");
    assertTrue(
        page.contains(
            "<td>samples</td><td class=\"l\">heap</td><td>"
                + Format.count(scenario.admissions)
                + "</td>"));
    assertTrue(page.contains("SYNC_FALLBACK"));
  }

  static int count(String text, String what) {
    int n = 0;
    for (int i = text.indexOf(what); i >= 0; i = text.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  @Test
  void observeModesWouldDeclinesCountWithTheDeclinesAndAreNamed(@TempDir Path here)
      throws Exception {
    Path file = here.resolve("observe.jfr");
    try (Recording r = new Recording()) {
      r.enable(CacheAdmissionEvent.NAME);
      r.start();
      admission(Decision.ADMIT, 600).emit();
      admission(Decision.WOULD_DECLINE, 1200).emit();
      r.stop();
      r.dump(file);
    }
    Run run = report(file.toString());
    assertEquals(0, run.code(), run.err());
    String[] row = siteRow(run.out());
    assertEquals("1", row[2], "admitted");
    assertEquals("1", row[3], "declined");
    assertEquals("1.17 KiB / 1000 B", row[8], "observe mode held past the budget");
    assertTrue(
        run.out()
            .contains("samples: 1 of the declines were WOULD_DECLINE (observe mode kept them)"),
        run.out());
  }

  /** Returns a 600-byte byte[] at site samples on the heap: {@code decision}, then {@code held}. */
  private static CacheAdmissionEvent admission(Decision decision, long held) {
    return CacheAdmissionEvent.decided()
        .site("samples")
        .tier("heap")
        .valueType("byte[]")
        .logicalBytes(600)
        .storageBytes(600)
        .chargedBytes(600)
        .decision(decision.name())
        .heldBytes(held)
        .budgetBytes(1000)
        .availableBytes(4000);
  }

  @Test
  void aRecordingWithoutFlodlEventsSaysSo(@TempDir Path here) throws Exception {
    Path file = here.resolve("jdk-only.jfr");
    try (Recording r = new Recording()) {
      r.enable("jdk.JVMInformation");
      r.start();
      r.stop();
      r.dump(file);
    }
    Run run = report(file.toString());
    assertEquals(0, run.code(), run.err());
    assertTrue(run.out().startsWith("jdk-only.jfr holds no flodl events ("), run.out());
    assertTrue(run.out().contains("record=FILE"), run.out());
  }

  @Test
  void aFileThatIsNotARecordingIsExitCodeTwo(@TempDir Path here) throws Exception {
    Path text = here.resolve("notes.jfr");
    Files.writeString(text, "this is not a flight recording\n");
    Run run = report(text.toString());
    assertEquals(2, run.code());
    assertEquals("", run.out());
    assertTrue(
        run.err().startsWith("flodl-budget report: " + text + " is not a JFR recording ("),
        run.err());

    Path truncated = here.resolve("truncated.jfr");
    byte[] whole = Files.readAllBytes(recording);
    Files.write(truncated, Arrays.copyOf(whole, 100));
    Run cut = report(truncated.toString());
    assertEquals(2, cut.code(), cut.out());
    assertTrue(cut.err().contains("is not a JFR recording"), cut.err());
  }

  @Test
  void usageErrorsAreExitCodeTwo(@TempDir Path here) {
    assertEquals(2, report().code());
    Run missing = report(here.resolve("nope.jfr").toString());
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("nope.jfr: no such file"), missing.err());
    Run unknown = report(recording.toString(), "--pdf");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("unknown option --pdf"), unknown.err());
    assertEquals(2, report(recording.toString(), "--html").code());
    assertEquals(0, report("report", recording.toString()).code(), "a leading report is skipped");
  }
}
