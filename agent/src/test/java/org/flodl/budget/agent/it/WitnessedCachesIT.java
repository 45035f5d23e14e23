package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Guava cache whose removal listener closes what leaves it ({@code com.acme.libs.ClosingCaches}:
 * 600 samples of 1 MiB, two epochs, {@code -Xmx256m}, a count bound of a million) is bounded by the
 * budget through its own bound: the job completes where it dies without the agent, and the listener
 * learns what it learns of Guava's own bound (differentially: the same program with a bound of 60
 * and no agent): the same causes, on the same threads, each sample told once or still cached, none
 * closed while the job was handed it, every one closed at the end; the cache keeps at least half of
 * what the budget holds; every value is stored and booked. Switched to observe over JMX, the agent
 * gives the cache its own bound back.
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
            .withJarsOf(LibraryCacheIT.LIBS.resolve("guava-current"))
            .jvm("-Xmx256m")
            .timeout(120)
            .run(APP, "--lib=guava", "--door=put");
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
  }

  @ParameterizedTest(name = "{0} ({1}) through {2}")
  @CsvSource({"guava, guava-current, put", "guava, guava-current, get", "guava, guava-older, put"})
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
    assertTrue(Long.parseLong(r.value("BOUND_STEERED")) < 1_000_000, r.toString());
    assertEquals("1000000", r.value("BOUND_OBSERVED"), name + ": observe gives it back: " + r);
    assertTrue(r.stdout.contains("DONE"), r.toString());
    for (String key : TOLD_ALIKE) {
      assertEquals(own.value(key), r.value(key), name + ": " + key + " as under its own bound");
    }
    // Guava evicts on the writing thread, least recently used first: after the job trained on
    // what it was handed, never the entry just written
    assertEquals("0", r.value("USED_CLOSED"), name + ": " + r);
    assertEquals("true", r.value("CLOSED_ALL"), r.toString());
    long admissions = 0;
    long declines = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals(lib)) {
        admissions += e.getLong("admissions");
        declines += e.getLong("declines");
      }
    }
    assertEquals(0, declines, name + ": nothing declined, nor recorded as would-decline: " + r);
    assertEquals(
        Long.parseLong(r.value("MADE")),
        admissions,
        name + ": every value stored and booked: " + r);
    // the cache keeps at least half the samples the budget holds (at the last decision's budget
    // and a sample's charge): a bound steered down is raised again as the budget finds room
    List<RecordedEvent> decided = r.events(CacheAdmissionEvent.NAME);
    RecordedEvent last = decided.get(decided.size() - 1);
    long allowed = last.getLong("budgetBytes") / last.getLong("chargedBytes");
    long cached = Long.parseLong(r.value("IN_CACHE"));
    assertTrue(cached >= allowed / 2, name + ": " + cached + " cached of " + allowed + ": " + r);
    List<RecordedEvent> named =
        r.events(InstrumentedEvent.NAME).stream()
            .filter(e -> "NOT_DECLINED".equals(e.getString("outcome")))
            .toList();
    assertEquals(1, named.size(), name + ": the cache named once: " + named);
    assertTrue(
        named
            .get(0)
            .getString("message")
            .contains("steers its own size bound instead (its own: 1000000)"),
        name + ": " + named);
    System.out.println(
        name
            + ": epoch-2 hits "
            + r.value("HITS")
            + " of 600 under the budget, "
            + own.value("HITS")
            + " under a bound of 60; cached at the end "
            + r.value("IN_CACHE")
            + " of the "
            + allowed
            + " the budget holds"
            + "; hits handed closed "
            + r.value("CLOSED_HITS")
            + " (under a bound of 60: "
            + own.value("CLOSED_HITS")
            + ")");
  }

  /**
   * An Ehcache 3 cache that writes through to a database ({@code com.acme.libs.WriteThroughTrain}:
   * a {@code CacheLoaderWriter}, a heap tier of a million entries, 600 samples of 1 MiB, two
   * epochs, {@code -Xmx256m}) dies without the agent; under its preset the budget steers its heap
   * tier's bound, and the job completes with the database the program with a bound of 60 entries
   * and no agent leaves: every put written once, no delete, every row intact.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"ehcache-current", "ehcache-older"})
  void anEhcacheThatWritesThroughIsBoundedByItsHeapTier(String jars) throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    String app = "com.acme.libs.WriteThroughTrain";
    ChildJvm.Result bare =
        ChildJvm.on("written-bare-" + jars, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .timeout(120)
            .run(app);
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
    ChildJvm.Result own =
        ChildJvm.on("written-own-" + jars, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .timeout(120)
            .run(app, "--bound=60");
    assertEquals(0, own.exitCode, own.toString());
    ChildJvm.Result r =
        ChildJvm.on("written-" + jars, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .agent("presets=ehcache")
            .record()
            .timeout(180)
            .run(app);
    assertEquals(0, r.exitCode, r.toString());
    for (String key : List.of("DELETES", "ROWS", "INTACT")) {
      assertEquals(own.value(key), r.value(key), jars + ": " + key + " as under its own bound");
    }
    // every put written once, under either bound (the hits, and so the puts, are the bound's)
    assertEquals(own.value("PUTS"), own.value("WRITES"), own.toString());
    assertEquals(r.value("PUTS"), r.value("WRITES"), r.toString());
    assertEquals("0", r.value("DELETES"), r.toString());
    long admissions = 0;
    long declines = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals("ehcache")) {
        admissions += e.getLong("admissions");
        declines += e.getLong("declines");
      }
    }
    assertEquals(0, declines, jars + ": " + r);
    assertEquals(Long.parseLong(r.value("PUTS")), admissions, jars + ": every put booked: " + r);
    assertTrue(r.stderr.contains("steers its own size bound instead (its own: 1000000)"), r.stderr);
    System.out.println(
        jars
            + ": epoch-2 hits "
            + r.value("HITS")
            + " of 600 under the budget, "
            + own.value("HITS")
            + " under a heap tier of 60 entries");
  }
}
