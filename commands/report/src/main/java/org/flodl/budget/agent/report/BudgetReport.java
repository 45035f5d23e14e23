package org.flodl.budget.agent.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * What a recording says about the budget: per cache site the decisions and bytes (from the
 * per-decision events, or from the periodic site summaries when those saw more), per prefetch and
 * ring site the depths chosen and why, each tier's held and budget bytes over time, the agent's
 * effective configuration and what it wove. {@link #read} reads a recording's chunks and an {@link
 * EventReader} gathers it all in one pass over their events.
 */
final class BudgetReport {
  /** The tiers a memory probe reports, in the order the report shows them. */
  static final List<String> TIERS = List.of("heap", "direct", "native", "mapped", "device");

  final Path file;
  Instant start;
  Instant end;
  long events;
  final Map<String, Long> flodlCounts = new TreeMap<>();
  final Map<String, CacheLedger> cacheSites = new TreeMap<>();
  final Map<String, DepthHistory> prefetchSites = new TreeMap<>();
  final Map<String, DepthHistory> ringSites = new TreeMap<>();
  final Map<String, TierSeries> tiers = new LinkedHashMap<>();
  final List<Reading> vramUsed = new ArrayList<>();
  final List<Reading> vramTotal = new ArrayList<>();
  final Map<String, RecordedSetting> configuration = new TreeMap<>();
  final Map<String, Long> instrumented = new TreeMap<>();
  final List<String> instrumentProblems = new ArrayList<>();
  final Map<String, RecordedEvent> lastBudget = new TreeMap<>();
  final Map<String, Long> budgetCounts = new TreeMap<>();
  RecordedEvent lastSplit;
  long probes;

  /** The recorded JVM's arguments ({@code jdk.JVMInformation}), or empty. */
  String jvmArguments = "";

  /** The facts the findings are drawn from: the same law as Mission Control's rules. */
  final org.flodl.budget.findings.Facts facts = new org.flodl.budget.findings.Facts();

  private BudgetReport(Path file) {
    this.file = file;
    for (String tier : TIERS) {
      tiers.put(tier, new TierSeries(tier));
    }
  }

  /**
   * Returns the report of {@code path}: a recording file, or a folder of them (a JFR repository a
   * killed JVM left, its chunks read in name order). A file that ends early (the JVM was killed
   * while writing it) gives the events before the break, said in {@link #truncated}; an IOException
   * when nothing at all can be read.
   */
  static BudgetReport read(Path path) throws IOException {
    BudgetReport report = new BudgetReport(path);
    EventReader reader = new EventReader(report);
    List<Path> files = new ArrayList<>();
    if (Files.isDirectory(path)) {
      try (var list = Files.list(path)) {
        list.filter(f -> f.getFileName().toString().endsWith(".jfr")).sorted().forEach(files::add);
      }
      if (files.isEmpty()) {
        throw new IOException("no .jfr files in the folder");
      }
    } else {
      files.add(path);
    }
    IOException first = null;
    for (Path f : files) {
      Path readable = null;
      try {
        readable = Chunks.readable(f);
        if (readable == null) {
          continue; // a chunk the recorder had begun and never flushed
        }
        try (RecordingFile recording = new RecordingFile(readable)) {
          while (recording.hasMoreEvents()) {
            reader.accept(recording.readEvent());
          }
        }
      } catch (IOException | RuntimeException e) {
        // a chunk the JVM was killed while writing: read what there is of the others
        if (first == null) {
          first = e instanceof IOException io ? io : new IOException(e.toString(), e);
        }
        report.truncated =
            (files.size() > 1 ? f.getFileName() + ": " : "")
                + Format.orElse(e.getMessage(), e.getClass().getSimpleName());
      } finally {
        if (readable != null && !readable.equals(f)) {
          Files.deleteIfExists(readable);
        }
      }
    }
    if (report.events == 0 && first != null) {
      throw first;
    }
    reader.finish();
    return report;
  }

  /** Why the recording ended before its end (a killed JVM's last chunk), or null. */
  String truncated;

  /** Returns the findings of every rule (the JMC rules' too). */
  List<org.flodl.budget.findings.Finding> findings() {
    return org.flodl.budget.findings.Findings.of(facts);
  }

  /** Returns the number of flodl events read. */
  long flodlEvents() {
    return flodlCounts.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Returns the recording's span in seconds (0 when it has no events). */
  double seconds() {
    return start == null ? 0 : Duration.between(start, end).toNanos() / 1e9;
  }

  /** Returns the seconds from the recording's start to {@code time}. */
  double at(Instant time) {
    return Duration.between(start, time).toNanos() / 1e9;
  }
}
