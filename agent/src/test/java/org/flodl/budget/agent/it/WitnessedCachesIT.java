package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cache whose removal listener closes what leaves it ({@code com.acme.libs.ClosingCaches}: 600
 * samples of 1 MiB, two epochs, {@code -Xmx256m}, a count bound of a million) is bounded by the
 * budget through its library's own bound: the job completes where it dies without the agent, and
 * the listener learns what it learns of the library's own bound (differentially: the same program
 * with a bound of 60 and no agent): the same causes, on the same threads, each sample told once or
 * still cached, none closed while the job was handed it, every one closed at the end.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class WitnessedCachesIT {
  private static final String APP = "com.acme.libs.ClosingCaches";

  /** What the listener learned, to be the same under the library's bound and the budget's. */
  private static final List<String> TOLD_ALIKE =
      List.of("CAUSES", "THREADS", "TWICE", "UNACCOUNTED", "CLOSED_ALL");

  @Test
  void withoutTheAgentTheJobDies() throws Exception {
    ChildJvm.Result bare =
        ChildJvm.on("witnessed-bare", Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve("caffeine-current"))
            .jvm("-Xmx256m")
            .timeout(120)
            .run(APP, "--lib=caffeine", "--door=put");
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
  }

  @ParameterizedTest(name = "{0} ({1}) through {2}")
  @CsvSource({
    "caffeine, caffeine-current, put",
    "caffeine, caffeine-current, get",
    "guava, guava-current, put",
    "guava, guava-current, get",
    "guava, guava-older, put"
  })
  void theBudgetSteersTheLibrarysOwnBound(String lib, String jars, String door) throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    String name = lib + "-" + jars + "-" + door;
    ChildJvm.Result own =
        ChildJvm.on("witnessed-own-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .timeout(120)
            .run(APP, "--lib=" + lib, "--door=" + door, "--bound=60");
    assertEquals(0, own.exitCode, own.toString());
    assertEquals("[SIZE]", own.value("CAUSES"), own.toString());
    ChildJvm.Result r =
        ChildJvm.on("witnessed-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .agent("presets=" + lib)
            .record()
            .timeout(180)
            .run(APP, "--lib=" + lib, "--door=" + door, "--observe-at-end");
    assertEquals(0, r.exitCode, r.toString());
    if (lib.equals("caffeine")) {
      assertTrue(Long.parseLong(r.value("BOUND_STEERED")) < 1_000_000, r.toString());
      assertEquals("1000000", r.value("BOUND_OBSERVED"), name + ": observe gives it back: " + r);
    }
    assertTrue(r.stdout.contains("DONE"), r.toString());
    for (String key : TOLD_ALIKE) {
      assertEquals(own.value(key), r.value(key), name + ": " + key + " as under its own bound");
    }
    // never a sample just written or loaded: the library evicts others first
    assertEquals(r.value("USED_CLOSED"), r.value("CLOSED_HITS"), name + ": " + r);
    if (lib.equals("guava")) {
      // Guava evicts on the writing thread: after the job trained on what it was handed
      assertEquals("0", r.value("USED_CLOSED"), name + ": " + r);
    }
    // Caffeine records a read in a buffer that its maintenance, on its executor, drains after it
    // may have picked that entry to evict: a hit just returned can be closed while the job
    // trains on it, under its own bound as under the budget's. Printed below.
    assertEquals("true", r.value("CLOSED_ALL"), r.toString());
    assertTrue(Long.parseLong(r.value("HITS")) > 0, name + ": the cache keeps samples: " + r);
    long wouldDecline = 0;
    long declined = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals(lib)) {
        wouldDecline += e.getLong("wouldDeclines");
        declined += e.getLong("declines") - e.getLong("wouldDeclines");
      }
    }
    assertEquals(0, declined, name + ": nothing declined: " + r);
    assertTrue(wouldDecline > 0, name + ": the budget was full: " + r);
    List<RecordedEvent> named =
        r.events(InstrumentedEvent.NAME).stream()
            .filter(e -> "NOT_DECLINED".equals(e.getString("outcome")))
            .toList();
    assertEquals(1, named.size(), name + ": the cache named once: " + named);
    assertTrue(
        named
            .get(0)
            .getString("message")
            .contains("steers its own size bound instead (from 1000000 to "),
        name + ": " + named);
    System.out.println(
        name
            + ": epoch-2 hits "
            + r.value("HITS")
            + " of 600 under the budget, "
            + own.value("HITS")
            + " under a bound of 60; cached at the end "
            + r.value("IN_CACHE")
            + "; hits handed closed "
            + r.value("CLOSED_HITS")
            + " (under a bound of 60: "
            + own.value("CLOSED_HITS")
            + ")");
  }
}
