package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A declined call loses no data: {@code com.acme.libs.SystemOfRecord}, a cache in front of a
 * database (a JCache write-through writer on Caffeine's and on Ehcache's provider, Ehcache's own
 * {@code CacheLoaderWriter}, Caffeine's and Guava's write-behind listeners), puts 10 rows of 1 MiB
 * under its library's preset with a budget that declines every value and with one that declines
 * some. Every run leaves the database as the run without the agent does: the 10 rows, the row
 * stored before overwritten and not deleted, no delete at all, as many writes. Such a cache is not
 * declined: its calls are admitted and counted as would-decline, and the cache is named once, on
 * stderr, in the recording ({@code Instrumented}, {@code NOT_DECLINED}) and in the report; where
 * the library's own size bound is steered (Guava's {@code maximumSize(5)}, Ehcache's {@code
 * heap(1_000)}), every put is stored and booked.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class SystemOfRecordIT {
  private static final int VALUES = 10;

  /** The budgets: one that declines every value, one that admits a few 1 MiB rows at -Xmx512m. */
  private static final List<String> BUDGETS = List.of("1e-7", "0.006");

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource({
    "jcache, caffeine-jcache, writes through to a CacheWriter, false",
    "jcache, ehcache-current, writes through to a CacheWriter, false",
    "ehcache, ehcache-current, a CacheLoaderWriter, true",
    "caffeine, caffeine-current, an eviction listener, false",
    "guava, guava-current, a removal listener, true"
  })
  void aCacheThatReachesADatabaseLosesNoRowToTheBudget(
      String lib, String jars, String witness, boolean steered) throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    ChildJvm.Result bare =
        ChildJvm.on("sor-bare-" + lib + "-" + jars, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx512m")
            .timeout(120)
            .run("com.acme.libs.SystemOfRecord", "--lib=" + lib, "--values=" + VALUES);
    assertEquals(0, bare.exitCode, bare.toString());
    assertEquals(String.valueOf(VALUES), bare.value("ROWS"), bare.toString());
    assertEquals("0", bare.value("DELETES"), bare.toString());
    assertEquals("true", bare.value("INTACT"), bare.toString());
    for (String budget : BUDGETS) {
      String run = "sor-" + lib + "-" + jars + "-" + budget;
      ChildJvm.Result r =
          ChildJvm.on(run, Jdk.JDK17)
              .withJarsOf(folder)
              .jvm("-Xmx512m")
              .agent("presets=" + lib + ",heap_max_usage=" + budget)
              .record()
              .timeout(120)
              .run("com.acme.libs.SystemOfRecord", "--lib=" + lib, "--values=" + VALUES);
      assertEquals(0, r.exitCode, r.toString());
      assertTrue(r.stdout.contains("DONE"), r.toString());
      for (String key : List.of("ROWS", "WRITES", "DELETES", "INTACT")) {
        assertEquals(bare.value(key), r.value(key), run + ": " + key + " as without the agent");
      }
      long decisions = 0;
      long wouldDecline = 0;
      long declined = 0;
      for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
        if (e.getString("site").equals(lib)) {
          decisions += e.getLong("admissions") + e.getLong("declines");
          wouldDecline += e.getLong("wouldDeclines");
          declined += e.getLong("declines") - e.getLong("wouldDeclines");
        }
      }
      assertEquals(VALUES, decisions, run + ": every put decided: " + r);
      assertEquals(0, declined, run + ": nothing declined: " + r);
      if (steered) {
        // its maximumSize(5) is steered instead: every put stored and booked
        assertEquals(0, wouldDecline, run + ": " + r);
      } else {
        assertTrue(wouldDecline > 0, run + ": the budget would have declined: " + r);
        if (budget.equals("0.006")) {
          assertTrue(wouldDecline < VALUES, run + ": a budget that admits some: " + r);
        }
      }
      List<RecordedEvent> named =
          r.events(InstrumentedEvent.NAME).stream()
              .filter(e -> "NOT_DECLINED".equals(e.getString("outcome")))
              .toList();
      assertEquals(1, named.size(), run + ": the cache named once: " + named);
      assertEquals(lib, named.get(0).getString("site"), run);
      assertTrue(named.get(0).getString("message").contains(witness), run + ": " + named);
      assertEquals(
          steered,
          named.get(0).getString("message").contains("steers its own size bound"),
          run + ": " + named);
      long lines = r.stderr.lines().filter(l -> l.contains("so the cache is not declined")).count();
      assertEquals(1, lines, run + ": one line: " + r.stderr);
      assertTrue(r.stderr.contains(witness), run + ": the line says why: " + r.stderr);
      String report = ChildJvm.report(r.recording);
      assertTrue(report.contains("NOT_DECLINED") && report.contains(witness), run + ": " + report);
    }
  }
}
