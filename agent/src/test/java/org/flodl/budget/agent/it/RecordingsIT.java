package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.CAUSE;
import static org.flodl.budget.events.EventFields.COLLECTED;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.HEAP_BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_MAX_BYTES;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.ReleaseCause;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.SamplingEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Recordings that last as long as the job (issue 26): a cache at the machine's full rate ({@code
 * com.acme.it.HammerApp}, two threads putting and evicting 16 KiB values through one site with a
 * release) recorded with {@code record=} at the default settings. The file is small, its {@code
 * SiteSummary} ledger is what the application counted, decision by decision, and the sampled
 * per-decision events' weights add up to the same; a {@code kill -9} leaves chunks that {@code
 * report} reads up to the last second or two, and keeping them costs no more per second late in a
 * run than early.
 */
@Tag("slow") // 10 s of a hammer, and a killed one
class RecordingsIT {
  /**
   * How long the hammer runs: the ledger is exact at any length; 10 s is close to a million
   * decisions on 2 cores.
   */
  static final int HAMMER_SECONDS = 10;

  static final String HAMMER =
      "site.hammer.kind = cache-admit\n"
          + "site.hammer.method = com.acme.it.HammerStore#put(java.lang.Object,java.lang.Object)\n"
          + "site.hammer.value = 1\n"
          + "site.hammer.release = com.acme.it.HammerStore#evict\n";

  @Test
  void aHammerAtFullRateLeavesOneSmallFileWhoseLedgerIsExact() throws Exception {
    Path sites = Sites.write("hammer", HAMMER);
    Path dir = ChildJvm.WORK.resolve("hammer-exact").toAbsolutePath();
    clean(dir);
    Path file = dir.resolve("run.jfr");
    ChildJvm.Result r =
        ChildJvm.on("hammer-exact", Jdk.JDK17)
            .jvm("-Xmx256m", "-XX:+UseG1GC")
            .agent("sites=" + sites + ",record=" + file)
            .timeout(180)
            .run(
                "com.acme.it.HammerApp",
                "--seconds=" + HAMMER_SECONDS,
                "--threads=2",
                "--window=4000");
    assertEquals(0, r.exitCode, r.toString());
    long puts = Long.parseLong(r.value("PUTS"));
    long admitted = Long.parseLong(r.value("ADMITTED"));
    long declined = Long.parseLong(r.value("DECLINED"));
    long released = Long.parseLong(r.value("RELEASED"));
    assertTrue(declined > 0 && admitted > 0, "the budget must both admit and decline: " + r);

    List<String> left;
    try (var files = Files.list(dir)) {
      left = files.map(p -> p.getFileName().toString()).sorted().toList();
    }
    assertEquals(List.of("run.jfr"), left, "after a clean exit only the file is left");
    long bytes = Files.size(file);
    System.out.println(
        "hammer: " + puts + " puts in " + HAMMER_SECONDS + " s, recording " + bytes + " bytes");
    // 8 MB for 30 s, pro rata (a 30 s run wrote about 1 MB, most of it the JDK's own GC
    // summaries)
    assertTrue(
        bytes < (8L << 20) * HAMMER_SECONDS / 30,
        HAMMER_SECONDS + " s of one site at full rate wrote " + bytes + " bytes");

    Ledger l = Ledger.of(file);
    assertEquals(admitted, l.sum(ADMISSIONS), "summaries: admissions");
    assertEquals(declined, l.sum(DECLINES), "summaries: declines");
    assertEquals(released, l.sum(RELEASES), "summaries: releases");
    assertEquals(0, l.sum(COLLECTED), "every value was evicted: none released by collection");
    assertEquals(l.sum(ADMITTED_BYTES), l.sum(RELEASED_BYTES), "every admitted byte came back");
    assertEquals(
        admitted, l.weights.getOrDefault(Decision.ADMIT.name(), 0L), "events' weights: ADMIT");
    assertEquals(
        declined, l.weights.getOrDefault(Decision.DECLINE.name(), 0L), "events' weights: DECLINE");
    assertEquals(
        released,
        l.weights.getOrDefault(ReleaseCause.RELEASE_SITE.name(), 0L),
        "events' weights: RELEASE_SITE");
    assertTrue(
        l.events.getOrDefault(Decision.DECLINE.name(), 0L) > 100,
        "declines are sampled on their own, not crowded out: " + l.events);
    assertTrue(
        l.events.getOrDefault(Decision.ADMIT.name(), 0L) < admitted / 100,
        "and the admissions are sampled: " + l.events);
    assertEquals(puts, l.samplingDecisions, "the chunk's sampling account: every decision");
  }

  /**
   * A job that ends a few milliseconds after its first decision (64 puts, then exit): its ledger is
   * still whole, though the probes' first refresh, which waits up to 250 ms, never came; and the
   * recording holds a memory reading (the heap's max, the heap tier's budget), though the reading's
   * 1 s period never came either: the chunk's end commits one (without it, the report and Mission
   * Control said "-Xmx unknown" of a job under a second).
   */
  @Test
  void aJobThatEndsRightAfterItsFirstDecisionKeepsItsWholeLedger() throws Exception {
    Path sites = Sites.write("hammer", HAMMER);
    Path dir = ChildJvm.WORK.resolve("hammer-short").toAbsolutePath();
    clean(dir);
    Path file = dir.resolve("run.jfr");
    ChildJvm.Result r =
        ChildJvm.on("hammer-short", Jdk.JDK17)
            .jvm("-Xmx256m")
            .agent("sites=" + sites + ",record=" + file)
            .timeout(120)
            .run("com.acme.it.HammerApp", "--threads=1", "--puts=64", "--window=8");
    assertEquals(0, r.exitCode, r.toString());
    long puts = Long.parseLong(r.value("PUTS"));
    long admitted = Long.parseLong(r.value("ADMITTED"));
    assertEquals(64, puts, r.toString());
    assertTrue(admitted > 0, "the budget admits: " + r);
    Ledger l = Ledger.of(file);
    assertEquals(admitted, l.sum(ADMISSIONS), "summaries: admissions, " + l.sums);
    assertEquals(Long.parseLong(r.value("DECLINED")), l.sum(DECLINES), "summaries: declines");
    assertEquals(Long.parseLong(r.value("RELEASED")), l.sum(RELEASES), "summaries: releases");
    assertEquals(l.sum(ADMITTED_BYTES), l.sum(RELEASED_BYTES), "every admitted byte came back");
    assertEquals(puts, l.samplingDecisions, "the chunk's sampling account: every decision");
    List<RecordedEvent> probes = new ArrayList<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (e.getEventType().getName().equals(MemoryProbeEvent.NAME)) {
        probes.add(e);
      }
    }
    assertEquals(1, probes.size(), "one reading, at the chunk's end: " + probes);
    RecordedEvent probe = probes.get(0);
    assertEquals(256L << 20, probe.getLong(HEAP_MAX_BYTES), "-Xmx256m: " + probe);
    assertTrue(probe.getLong(HEAP_BUDGET_BYTES) > 0, "the heap tier's budget: " + probe);
  }

  @Test
  void aKillMinus9LeavesChunksReportReadsAndKeepingThemDoesNotGrowWithTheRun() throws Exception {
    Path sites = Sites.write("hammer", HAMMER);
    Path dir = ChildJvm.WORK.resolve("hammer-killed").toAbsolutePath();
    clean(dir);
    Path file = dir.resolve("killed.jfr");
    ChildJvm child =
        ChildJvm.on("hammer-killed", Jdk.JDK17)
            .jvm("-Xmx256m", "-XX:+UseG1GC")
            .agent("sites=" + sites + ",record=" + file);
    Process app =
        child.start(
            "com.acme.it.HammerApp",
            "--seconds=600",
            "--threads=2",
            "--window=4000",
            "--beat-ms=100");
    long pid = app.pid();
    // The app says when it runs; the test measures from there, not from the launch.
    long ready = awaitLine(child, "READY", 60).toEpochMilli();
    // What the process wrote against the puts it made, in an early and a late window: a machine
    // that starves the app slows its puts and the recorder's writes alike, so the bytes a put are
    // no clock's (the app's own count, printed every 100 ms, read with each sample of wchar).
    long[] w = new long[4];
    long[] puts = new long[4];
    long[] marks = {2_000, 4_000, 7_000, 9_000};
    for (int i = 0; i < 4; i++) {
      sleepUntil(ready + marks[i]);
      w[i] = wchar(pid);
      puts[i] = lastSoFar(child.stdoutSoFar());
    }
    sleepUntil(ready + 10_000);
    assertTrue(app.isAlive(), "the app ended before the kill: " + child.stdoutSoFar());
    Instant killed = Instant.now();
    app.destroyForcibly(); // SIGKILL: no shutdown hook, no dump at exit
    assertTrue(app.waitFor(10, TimeUnit.SECONDS));
    double earlyPerPut = (w[1] - w[0]) / (double) Math.max(1, puts[1] - puts[0]);
    double latePerPut = (w[3] - w[2]) / (double) Math.max(1, puts[3] - puts[2]);
    System.out.printf(
        "bytes written a put: %.3f (2-4 s, %d puts), %.3f (7-9 s, %d puts)%n",
        earlyPerPut, puts[1] - puts[0], latePerPut, puts[3] - puts[2]);
    assertTrue(puts[1] > puts[0] && puts[3] > puts[2], "the app put in both windows: " + child);
    // At most half as much again as the early rate predicts for the late window's puts, and 512
    // KiB: keeping the chunks must not cost more as the run grows.
    assertTrue(
        w[3] - w[2] < earlyPerPut * 1.5 * (puts[3] - puts[2]) + 512 * 1024,
        "the work a put grew with the run: " + earlyPerPut + " then " + latePerPut + " bytes");

    assertFalse(Files.exists(file) && Files.size(file) > 0, "a killed JVM wrote no file");
    Path chunks = dir.resolve("killed.jfr.chunks");
    assertTrue(Files.isDirectory(chunks), "no chunks beside " + file);

    String out = ChildJvm.report(file);
    assertTrue(out.contains("was never written") && out.contains("hammer"), out);

    Instant last = null;
    for (Path chunk : chunkFiles(chunks)) {
      for (RecordedEvent e : readRepaired(chunk)) {
        if (e.getEventType().getName().equals(SiteSummaryEvent.NAME)
            && (last == null || e.getEndTime().isAfter(last))) {
          last = e.getEndTime();
        }
      }
    }
    assertTrue(last != null, "no site summary in the chunks");
    // What the crash lost, measured between two records of the run itself, not the test's clock:
    // the app's last beat (it prints the time every 100 ms while it puts) and the last summary
    // the chunks kept. A loaded machine delays both alike.
    long lastBeat = -1;
    for (String line : child.stdoutSoFar().split("\n")) {
      if (line.startsWith("AT=")) {
        lastBeat = Long.parseLong(line.substring(3).split(" ")[0]);
      }
    }
    assertTrue(lastBeat > 0, "no beat of the app's: " + child.stdoutSoFar());
    long lostMillis = lastBeat - last.toEpochMilli();
    System.out.println(
        "last summary "
            + lostMillis
            + " ms before the app's last beat ("
            + (killed.toEpochMilli() - last.toEpochMilli())
            + " ms before the kill)");
    assertTrue(lostMillis <= 2_500, "the chunks end " + lostMillis + " ms before the last beat");
  }

  /** What a recording's ledger says: sums of SiteSummary fields, weights per decision kind. */
  static final class Ledger {
    final Map<String, Long> sums = new TreeMap<>();
    final Map<String, Long> weights = new TreeMap<>();
    final Map<String, Long> events = new TreeMap<>();
    long samplingDecisions;

    static Ledger of(Path file) throws IOException {
      Ledger l = new Ledger();
      try (RecordingFile f = new RecordingFile(file)) {
        while (f.hasMoreEvents()) {
          l.accept(f.readEvent());
        }
      }
      return l;
    }

    void accept(RecordedEvent e) {
      switch (e.getEventType().getName()) {
        case SiteSummaryEvent.NAME -> {
          for (String k :
              List.of(
                  ADMISSIONS,
                  DECLINES,
                  RELEASES,
                  COLLECTED,
                  ADMITTED_BYTES,
                  RELEASED_BYTES,
                  ALREADY_HELD)) {
            sums.merge(k, e.getLong(k), Long::sum);
          }
        }
        case CacheAdmissionEvent.NAME -> {
          weights.merge(e.getString(DECISION), e.getLong(DECISIONS), Long::sum);
          events.merge(e.getString(DECISION), 1L, Long::sum);
        }
        case ReleaseEvent.NAME -> {
          weights.merge(e.getString(CAUSE), e.getLong(DECISIONS), Long::sum);
          events.merge(e.getString(CAUSE), 1L, Long::sum);
        }
        case SamplingEvent.NAME -> samplingDecisions += e.getLong(DECISIONS);
        default -> {}
      }
    }

    long sum(String field) {
      return sums.getOrDefault(field, 0L);
    }
  }

  /** Waits for a stdout line starting with {@code prefix}; returns when it was seen. */
  static Instant awaitLine(ChildJvm child, String prefix, int seconds) throws Exception {
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    while (System.nanoTime() < end) {
      for (String line : child.stdoutSoFar().split("\n")) {
        if (line.startsWith(prefix)) {
          return Instant.now();
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("no " + prefix + " line in " + seconds + " s: " + child.stdoutSoFar());
  }

  static void sleepUntil(long epochMillis) throws InterruptedException {
    Thread.sleep(Math.max(0, epochMillis - System.currentTimeMillis()));
  }

  /** Returns bytes a second between two readings {@code {bytes, ms, bytes, ms}}. */
  /** Returns the app's last {@code SO_FAR=} count in {@code stdout}, or 0 before the first. */
  static long lastSoFar(String stdout) {
    long n = 0;
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("SO_FAR=(\\d+)").matcher(stdout);
    while (m.find()) {
      n = Long.parseLong(m.group(1));
    }
    return n;
  }

  /** Returns what the process handed to write calls so far ({@code wchar} of /proc/PID/io). */
  static long wchar(long pid) throws IOException {
    try (BufferedReader in = Files.newBufferedReader(Path.of("/proc/" + pid + "/io"))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("wchar:")) {
          return Long.parseLong(line.substring(6).trim());
        }
      }
    }
    throw new AssertionError("no wchar in /proc/" + pid + "/io");
  }

  static List<Path> chunkFiles(Path folder) throws IOException {
    try (var files = Files.list(folder)) {
      return files.filter(f -> f.toString().endsWith(".jfr")).sorted().toList();
    }
  }

  /** Reads a chunk a killed JVM left, cut at its last flush as {@code report} reads it. */
  static List<RecordedEvent> readRepaired(Path chunk) throws IOException {
    byte[] b = Files.readAllBytes(chunk);
    if (b.length < 68 || java.nio.ByteBuffer.wrap(b).getLong(24) == 0) {
      return List.of(); // begun, never flushed: nothing to read yet
    }
    long size = java.nio.ByteBuffer.wrap(b).getLong(8);
    if (b[64] != 0 && size >= 68 && size <= b.length) {
      b = java.util.Arrays.copyOf(b, (int) size);
      b[64] = 0;
    }
    Path copy = Files.createTempFile("chunk", ".jfr");
    try {
      Files.write(copy, b);
      return new ArrayList<>(RecordingFile.readAllEvents(copy));
    } finally {
      Files.deleteIfExists(copy);
    }
  }

  static void clean(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      try (var walk = Files.walk(dir)) {
        for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
          Files.deleteIfExists(p);
        }
      }
    }
    Files.createDirectories(dir);
  }
}
