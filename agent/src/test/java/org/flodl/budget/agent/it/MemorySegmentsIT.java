package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Memory segments (JDK 22+, run on the newest JDK the build finds) priced by the memory each keeps
 * alive: {@code com.acme.ffm.SegmentLoader} caches segments in a map through a hand-written call
 * site, at {@code -Xmx1g -XX:MaxDirectMemorySize=512m}. A 1 KiB slice of a 16 MiB automatic-arena
 * row group, a 1 MiB automatic-arena segment and a 1 KiB slice of a 16 MiB heap array each die
 * without the agent and complete under it with the checksum of a roomy run, every admitted sample
 * charged at least what it pins, on the direct tier (the two automatic arenas: the JDK reserves
 * them against {@code MaxDirectMemorySize}) or the heap; a shared arena's slice is charged its 4
 * MiB allocation on the native tier, a mapped file's slice the whole mapping on the mapped tier.
 */
class MemorySegmentsIT {
  private static final String APP = "com.acme.ffm.SegmentLoader";
  private static final String SITES =
      "site.segments.kind   = cache-admit\n"
          + "site.segments.in     = com.acme.ffm.SegmentLoader$SegmentCache#keep(int,java.lang.Object)\n"
          + "site.segments.method = java.util.Map#put(java.lang.Object,java.lang.Object)\n"
          + "site.segments.value  = 1\n";

  @ParameterizedTest(name = "{0}")
  @CsvSource({"auto, 640, DIRECT, 1048576"})
  void aSegmentIsChargedWhatItKeepsAliveWhereTheJdkCountsIt(
      String shape, int samples, String tier, long pins) throws Exception {
    Path sites = Sites.write("segments", SITES);
    String[] args = {"--shape=" + shape, "--samples=" + samples};
    ChildJvm.Result bare =
        ChildJvm.on("segments-bare-" + shape, Jdk.JDK25)
            .jvm("-Xmx1g", "-XX:MaxDirectMemorySize=512m")
            .timeout(180)
            .run(APP, args);
    assertNotEquals(0, bare.exitCode, "without the agent the cache outgrows its memory: " + bare);
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
    ChildJvm.Result roomy =
        ChildJvm.on("segments-roomy-" + shape, Jdk.JDK25)
            .jvm("-Xmx4g", "-XX:MaxDirectMemorySize=3g")
            .timeout(180)
            .run(APP, args);
    assertEquals(0, roomy.exitCode, roomy.toString());
    ChildJvm.Result r =
        ChildJvm.on("segments-" + shape, Jdk.JDK25)
            .jvm("-Xmx1g", "-XX:MaxDirectMemorySize=512m")
            .agent("sites=" + sites)
            .record()
            .timeout(180)
            .run(APP, args);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(roomy.value("CHECKSUM"), r.value("CHECKSUM"), "every sample trained on: " + r);
    Counts c = counts(r, tier);
    assertEquals(Long.parseLong(r.value("LOADS")), c.decisions, "one decision a load: " + r);
    assertTrue(c.admissions > 0 && c.declines > 0, "the budget admitted some, declined some: " + r);
    assertTrue(
        c.admittedBytes >= c.admissions * pins,
        "each admitted sample charged what it pins: " + c.admittedBytes + " for " + c.admissions);
    assertTrue(r.stderr.lines().noneMatch(l -> l.startsWith("flodl-budget:")), r.stderr);
  }

  /**
   * The seed's view rule off the heap (issue 63): a 1 KiB slice of a 16 MiB row group (an automatic
   * arena's, or a heap array's) pins over twice what it addresses, so the cache is handed a copy of
   * its own, charged the copy's bytes on the same tier ({@code ADMIT_MATERIALIZED}), and keeps
   * every sample where, charged the row groups, it kept a few dozen: the second epoch's samples are
   * hits, the job trains on what it would with room for every row group, and no admission is
   * charged less than its copy holds.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource({"auto-slice, DIRECT", "heap-slice, HEAP"})
  void aSmallViewOfALargeAllocationIsCopiedAndTheCacheKeepsItsSamples(String shape, String tier)
      throws Exception {
    int samples = 400;
    Path sites = Sites.write("segments", SITES);
    String[] args = {"--shape=" + shape, "--samples=" + samples};
    ChildJvm.Result bare =
        ChildJvm.on("segments-copy-bare-" + shape, Jdk.JDK25)
            .jvm("-Xmx1g", "-XX:MaxDirectMemorySize=512m")
            .timeout(180)
            .run(APP, args);
    assertNotEquals(0, bare.exitCode, "without the agent the cache outgrows its memory: " + bare);
    ChildJvm.Result r =
        ChildJvm.on("segments-copy-" + shape, Jdk.JDK25)
            .jvm("-Xmx1g", "-XX:MaxDirectMemorySize=512m")
            .agent("sites=" + sites)
            .record()
            .timeout(180)
            .run(APP, args);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(String.valueOf(2 * samples), r.value("DELIVERED"), r.toString());
    long hits = Long.parseLong(r.value("HITS"));
    assertTrue(hits >= samples * 9 / 10, "at least 90 % of epoch 2 from the cache: " + r);
    Counts c = counts(r, tier);
    assertEquals(Long.parseLong(r.value("LOADS")), c.decisions, "one decision a load: " + r);
    List<RecordedEvent> admitted =
        r.events(CacheAdmissionEvent.NAME).stream()
            .filter(e -> e.getString("decision").startsWith("ADMIT"))
            .toList();
    assertTrue(!admitted.isEmpty(), r.toString());
    for (RecordedEvent e : admitted) {
      assertEquals("ADMIT_MATERIALIZED", e.getString("decision"), e.toString());
      assertTrue(e.getBoolean("materialized"), e.toString());
      assertTrue(e.getLong("storageBytes") >= 16L << 20, "the row group it pinned: " + e);
      assertTrue(e.getLong("chargedBytes") >= 1024, "charged the copy it holds: " + e);
      assertTrue(e.getLong("chargedBytes") < 1L << 20, "not the row group: " + e);
    }
    assertTrue(r.stderr.lines().noneMatch(l -> l.startsWith("flodl-budget:")), r.stderr);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"shared-slice, NATIVE, 4194304", "mapped-slice, MAPPED, 67108864"})
  void anArenaThatIsNotAutomaticIsChargedOnTheTierItsMemoryIsIn(
      String shape, String tier, long pins) throws Exception {
    Path sites = Sites.write("segments", SITES);
    ChildJvm.Result r =
        ChildJvm.on("segments-" + shape, Jdk.JDK25)
            .jvm("-Xmx1g", "-XX:MaxDirectMemorySize=512m")
            .agent("sites=" + sites)
            .record()
            .timeout(180)
            .run(APP, "--shape=" + shape, "--samples=16");
    assertEquals(0, r.exitCode, r.toString());
    Counts c = counts(r, tier);
    assertEquals(16, c.decisions, "every load decided on " + tier + ": " + r);
    List<RecordedEvent> admitted =
        r.events(CacheAdmissionEvent.NAME).stream()
            .filter(e -> e.getString("decision").startsWith("ADMIT"))
            .toList();
    assertTrue(!admitted.isEmpty(), r.toString());
    for (RecordedEvent e : admitted) {
      assertTrue(tier.equalsIgnoreCase(e.getString("tier")), e.toString());
      assertTrue(e.getLong("chargedBytes") >= pins, e.toString());
      assertTrue(!e.getBoolean("estimated"), "seen into, not estimated: " + e);
    }
  }

  /** A site's summed counts on one tier (all of its decisions must be there). */
  private record Counts(long decisions, long admissions, long declines, long admittedBytes) {}

  private static Counts counts(ChildJvm.Result r, String tier) throws Exception {
    long admissions = 0;
    long declines = 0;
    long admittedBytes = 0;
    long elsewhere = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (!e.getString("site").equals("segments")) {
        continue;
      }
      long n = e.getLong("admissions") + e.getLong("declines");
      if (e.getString("tier").equalsIgnoreCase(tier)) {
        admissions += e.getLong("admissions");
        declines += e.getLong("declines");
        admittedBytes += e.getLong("admittedBytes");
      } else {
        elsewhere += n;
      }
    }
    assertEquals(0, elsewhere, "decisions on another tier than " + tier + ": " + r);
    return new Counts(admissions + declines, admissions, declines, admittedBytes);
  }
}
