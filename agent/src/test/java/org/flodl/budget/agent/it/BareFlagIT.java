package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The bare flag, {@code -javaagent:flodl-budget-agent.jar} with no argument, as a new user first
 * adds it: on a job that dies of {@code OutOfMemoryError} at -Xmx256m (an unbounded Caffeine cache
 * filled through {@code asMap().computeIfAbsent}, a Guava cache through {@code get(k, callable)})
 * it changes nothing (the job dies as without the agent, no value declined), and as it dies prints
 * one block on stderr: the site that held memory, what a budget would have declined, and the flag
 * that budgets it, with the jar's path as the job named it; the report of the job's recording shows
 * the same block. The same job run with exactly that flag completes. A job with no cache hears
 * nothing from the agent.
 */
@Tag("slow") // several child JVMs at a full heap: left out by -Pfast
class BareFlagIT {
  private static final String SAMPLES = "--samples=600";
  private static final String BLOCK =
      "flodl-budget: observed only, nothing changed (no argument chose what to budget);"
          + " what a budget would have done:";
  private static final String FLAG = "flodl-budget: budget it with: ";

  @ParameterizedTest(name = "{0}")
  @CsvSource({"caffeine-compute, caffeine-current, caffeine", "guava-get, guava-current, guava"})
  void theBareFlagChangesNothingAndPrintsTheFlagThatSavesTheJob(
      String door, String jars, String preset) throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    ChildJvm.Result without =
        ChildJvm.on("bare-flag-without-" + door, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=" + door, SAMPLES);
    assertNotEquals(0, without.exitCode, "without the agent the job dies: " + without);
    assertTrue(without.stderr.contains("OutOfMemoryError"), without.toString());

    ChildJvm.Result observed =
        ChildJvm.on("bare-flag-" + door, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .agent(null)
            .record()
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=" + door, SAMPLES);
    assertEquals(without.exitCode, observed.exitCode, "the job's outcome unchanged: " + observed);
    assertTrue(observed.stderr.contains("OutOfMemoryError"), observed.toString());
    List<String> said = observed.stderr.lines().filter(l -> l.startsWith("flodl-budget:")).toList();
    assertEquals(3, said.size(), "one block, as the job dies: " + said);
    assertEquals(BLOCK, said.get(0));
    assertTrue(
        said.get(1).startsWith("flodl-budget:   " + preset + ": held up to ")
            && said.get(1).contains("; a budget would have declined ")
            && said.get(1).endsWith("[sure: the " + preset + " preset's cache]"),
        said.get(1));
    String flag = said.get(2).substring(FLAG.length());
    assertEquals(
        "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=presets=" + preset,
        flag,
        "the flag with the jar's path as the job named it");
    // Observed, never declined: every decision that would have declined was kept.
    long wouldDecline = 0;
    long declines = 0;
    long admissions = 0;
    for (RecordedEvent e : observed.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals(preset)) {
        wouldDecline += e.getLong("wouldDeclines");
        declines += e.getLong("declines");
        admissions += e.getLong("admissions");
      }
    }
    assertTrue(admissions > 0 && wouldDecline > 0, "decided, in observe: " + observed);
    assertEquals(wouldDecline, declines, "no value declined under the bare flag");
    // The report of the job's recording gives the same advice: the block, the same flag.
    List<String> report = ChildJvm.report(observed.recording).lines().toList();
    int at = report.indexOf(BLOCK.substring("flodl-budget: ".length()));
    assertTrue(at >= 0, "the block in the report: " + report);
    assertTrue(
        report.get(at + 1).startsWith("  " + preset + ": held up to ")
            && report.get(at + 1).endsWith("[sure: the " + preset + " preset's cache]"),
        report.get(at + 1));
    assertEquals(FLAG.substring("flodl-budget: ".length()) + flag, report.get(at + 2));

    ChildJvm.Result budgeted =
        ChildJvm.on("bare-flag-then-" + door, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m", flag)
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=" + door, SAMPLES);
    assertEquals(0, budgeted.exitCode, "the job completes with the printed flag: " + budgeted);
    assertEquals("1200", budgeted.value("DELIVERED"), budgeted.toString());
  }

  /**
   * The bare flag set where a container image sets JVM options, {@code JAVA_TOOL_OPTIONS}, gives
   * the same observation: the job dies as without the agent and the block names the same flag.
   */
  @Test
  void theBareFlagInJavaToolOptionsObservesTheSame() throws Exception {
    ChildJvm.Result observed =
        ChildJvm.on("bare-flag-tool-options", Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve("caffeine-current"))
            .jvm("-Xmx256m")
            .env("JAVA_TOOL_OPTIONS", "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath())
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=caffeine-compute", SAMPLES);
    assertNotEquals(0, observed.exitCode, "the job's outcome unchanged: " + observed);
    assertTrue(observed.stderr.contains("OutOfMemoryError"), observed.toString());
    List<String> said = observed.stderr.lines().filter(l -> l.startsWith("flodl-budget:")).toList();
    assertEquals(3, said.size(), "one block, as the job dies: " + said);
    assertEquals(BLOCK, said.get(0));
    assertEquals(
        FLAG + "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=presets=caffeine",
        said.get(2));
  }

  @Test
  void aJobWithNoCacheHearsNothingFromTheAgent() throws Exception {
    ChildJvm.Result without =
        ChildJvm.on("bare-flag-no-cache-without", Jdk.JDK17).run("com.acme.it.StartApp", "10");
    ChildJvm.Result observed =
        ChildJvm.on("bare-flag-no-cache", Jdk.JDK17).agent(null).run("com.acme.it.StartApp", "10");
    assertEquals(0, observed.exitCode, observed.toString());
    assertEquals(without.stdout, observed.stdout, "its output unchanged");
    assertEquals("", observed.stderr.strip(), "not a line from the agent");
  }
}
