package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
 * Every door into a library's cache is budgeted like {@code put}: {@code com.acme.libs.CacheDoors}
 * fills an unbounded cache with 600 samples of 1 MiB over two epochs through one door (Caffeine's
 * and Guava's {@code asMap().computeIfAbsent} and {@code asMap().get} then {@code put}, Caffeine's
 * async loading cache and its {@code AsyncCache.put} of a complete future, Guava's {@code
 * LoadingCache.getAll} with a loader that loads key by key, JCache's {@code invoke} with an entry
 * processor that calls {@code setValue}, on Caffeine's and on Ehcache's provider, and the caches'
 * own loading {@code get} beside them). Without the agent each dies of {@code OutOfMemoryError} at
 * -Xmx256m; under its library's preset it completes with the checksum of a run with room for every
 * sample, and the recording's counts are the application's: one decision for each value the door
 * stored, each admitted value charged at least its array, and, where the door's own remove releases
 * ({@code asMap().remove}), every admitted byte given back once when the run removes its keys.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class CacheDoorsIT {
  private static final int SAMPLES = 600;
  private static final long SAMPLE_BYTES = 1 << 20;

  /** The checksum of a run with room for every sample, once for every door (see below). */
  private static String roomy;

  /**
   * Returns the checksum of the program run with room for every sample and no agent: every door
   * trains on the same samples in the same order, so one run serves them all.
   */
  private static synchronized String roomyChecksum() throws Exception {
    if (roomy == null) {
      ChildJvm.Result r =
          ChildJvm.on("doors-roomy", Jdk.JDK17)
              .withJarsOf(LibraryCacheIT.LIBS.resolve("caffeine-current"))
              .jvm("-Xmx1500m")
              .timeout(180)
              .run("com.acme.libs.CacheDoors", "--door=caffeine-get", "--samples=" + SAMPLES);
      assertEquals(0, r.exitCode, r.toString());
      roomy = r.value("CHECKSUM");
    }
    return roomy;
  }

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource({
    "caffeine-get, caffeine-current, caffeine, true",
    "caffeine-compute, caffeine-current, caffeine, true",
    "caffeine-map-put, caffeine-current, caffeine, true",
    "caffeine-async, caffeine-current, caffeine, true",
    "caffeine-async-put, caffeine-current, caffeine, true",
    "guava-get, guava-current, guava, true",
    "guava-compute, guava-current, guava, true",
    "guava-map-put, guava-current, guava, true",
    "guava-get-all, guava-current, guava, true",
    "guava-get-all, guava-older, guava, true",
    "jcache-invoke, caffeine-jcache, jcache, false",
    "jcache-invoke, ehcache-current, jcache, false"
  })
  void aCacheFilledThroughEveryDoorIsBudgeted(
      String door, String jars, String preset, boolean removeReleases) throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    String name = door + "-" + jars;
    ChildJvm.Result bare =
        ChildJvm.on("doors-bare-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=" + door, "--samples=" + SAMPLES);
    assertNotEquals(0, bare.exitCode, "without the agent the cache outgrows the heap: " + bare);
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
    ChildJvm.Result r =
        ChildJvm.on("doors-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx256m")
            .agent("presets=" + preset)
            .record()
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=" + door, "--samples=" + SAMPLES, "--clear");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(String.valueOf(2 * SAMPLES), r.value("DELIVERED"), r.toString());
    assertEquals(roomyChecksum(), r.value("CHECKSUM"), "every sample trained on: " + r);
    assertTrue(
        r.stderr.lines().noneMatch(l -> l.startsWith("flodl-budget:")),
        "the agent said nothing: " + r.stderr);
    long admissions = 0;
    long admittedBytes = 0;
    long declines = 0;
    long releases = 0;
    long releasedBytes = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals(preset)) {
        admissions += e.getLong("admissions");
        admittedBytes += e.getLong("admittedBytes");
        declines += e.getLong("declines");
        releases += e.getLong("releases");
        releasedBytes += e.getLong("releasedBytes");
      }
    }
    long loads = Long.parseLong(r.value("LOADS"));
    assertEquals(loads, admissions + declines, "one decision for each value stored: " + r);
    assertTrue(declines > 0 && admissions > 0, "the budget declined some: " + r);
    assertTrue(
        admittedBytes >= admissions * SAMPLE_BYTES,
        "each admitted sample charged its array: " + admittedBytes + " for " + admissions);
    if (removeReleases) {
      assertEquals(admissions, releases, "each admitted value released once: " + r);
      assertEquals(admittedBytes, releasedBytes, "every admitted byte given back: " + r);
    } else {
      assertTrue(releasedBytes <= admittedBytes, "released no more than admitted: " + r);
    }
  }

  /**
   * A future not yet complete handed to Caffeine's {@code AsyncCache.put} holds nothing yet: it is
   * not decided there, and the agent says so once, in one line and an {@code Instrumented} event
   * ({@code NOT_COVERED}); only a {@code get} of the cache that returns it would decide it, and
   * {@code getIfPresent} is not one. The run is the application's as written.
   */
  @Test
  void aPendingFuturePutIsNotDecidedThereAndIsSaidOnce() throws Exception {
    ChildJvm.Result r =
        ChildJvm.on("doors-async-put-pending", Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve("caffeine-current"))
            .jvm("-Xmx256m")
            .agent("presets=caffeine")
            .record()
            .timeout(180)
            .run("com.acme.libs.CacheDoors", "--door=caffeine-async-put-pending", "--samples=50");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("100", r.value("DELIVERED"), r.toString());
    assertEquals(
        1,
        r.stderr.lines().filter(l -> l.contains("a future not yet complete was passed")).count(),
        "said once: " + r.stderr);
    assertEquals(
        1,
        r.events(InstrumentedEvent.NAME).stream()
            .filter(e -> "NOT_COVERED".equals(e.getString("outcome")))
            .count(),
        "one event: " + r);
    assertEquals(0, r.events(CacheAdmissionEvent.NAME).size(), "nothing decided: " + r);
  }
}
