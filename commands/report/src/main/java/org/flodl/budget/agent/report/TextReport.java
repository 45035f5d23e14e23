package org.flodl.budget.agent.report;

import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.PINNED_BYTES;
import static org.flodl.budget.events.EventFields.RING_BYTES;
import static org.flodl.budget.events.EventFields.STREAM_BYTES;
import static org.flodl.budget.events.EventFields.TOTAL_BYTES;

import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import jdk.jfr.consumer.RecordedEvent;

/**
 * The report a person reads in ten seconds: per cache site the decisions and bytes and the peak
 * held against the budget, per prefetch and ring site the depths chosen and why, each tier's peak,
 * the effective configuration and what the agent wove. Plain text, columns aligned.
 */
final class TextReport {
  static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

  private TextReport() {}

  /** Returns the one line said when a recording holds no flodl event. */
  static String noFlodlEvents(BudgetReport r) {
    return r.file.getFileName()
        + " holds no flodl events ("
        + Format.count(r.events)
        + " other events): was the agent attached with record=FILE, or were the flodl events"
        + " enabled in the recording's settings (flodl-budget.jfc)?";
  }

  /** Returns the whole text report. */
  static String render(BudgetReport r) {
    StringBuilder b = new StringBuilder();
    b.append("flodl-budget report of ").append(r.file.getFileName()).append('\n');
    b.append("  ")
        .append(Format.seconds(r.seconds()))
        .append(" recorded from ")
        .append(TIME.format(r.start))
        .append(", ")
        .append(Format.count(r.flodlEvents()))
        .append(" flodl events of ")
        .append(Format.count(r.events))
        .append("\n");
    if (r.truncated != null) {
      b.append("  (the recording ends early, a JVM killed while writing it: ")
          .append(r.truncated)
          .append(")\n");
    }
    b.append('\n');
    advice(r, b);
    findings(r, b);
    cacheSites(r, b);
    depthSites("Prefetch sites", r.prefetchSites, true, b);
    depthSites("Reader ring", r.ringSites, false, b);
    memory(r, b);
    configuration(r, b);
    instrumented(r, b);
    return b.toString();
  }

  /**
   * The bare flag's block, as the agent printed it at exit, where the recording is of the bare flag
   * and a site held memory ({@link ReportAdvice}).
   */
  private static void advice(BudgetReport r, StringBuilder b) {
    List<String> lines = ReportAdvice.lines(r);
    for (String line : lines) {
      b.append(line).append('\n');
    }
    if (!lines.isEmpty()) {
      b.append('\n');
    }
  }

  /**
   * The findings, one line each, with what to do where there is something: the same rules Mission
   * Control's automated analysis runs (module jmc-rules).
   */
  private static void findings(BudgetReport r, StringBuilder b) {
    b.append("Findings (the same rules as Mission Control's automated analysis, jmc-rules)\n");
    for (org.flodl.budget.findings.Finding f : r.findings()) {
      b.append("  ").append(f.line()).append('\n');
      if (f.severity() == org.flodl.budget.findings.Severity.WARNING && !f.solution().isEmpty()) {
        b.append("      what to do: ").append(f.solution()).append('\n');
      }
    }
    b.append('\n');
  }

  private static void cacheSites(BudgetReport r, StringBuilder b) {
    if (r.cacheSites.isEmpty()) {
      b.append("Cache sites: none recorded\n\n");
      return;
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(
        new String[] {
          "Cache sites",
          "tier",
          "admitted",
          "declined",
          "materialized",
          "bytes admitted",
          "bytes declined",
          "released",
          "peak held / budget",
          ""
        });
    List<String> notes = new ArrayList<>();
    for (CacheLedger site : r.cacheSites.values()) {
      DecisionCounts c = site.counts();
      rows.add(
          new String[] {
            "  " + site.name,
            site.tier,
            Format.count(c.admissions),
            Format.count(c.declines),
            Format.count(c.materialized),
            Format.bytes(c.admittedBytes),
            Format.bytes(c.declinedBytes),
            Format.bytes(site.releasedBytes()),
            Format.bytes(site.peakHeld()) + " / " + Format.bytes(site.budgetAtPeak()),
            Format.share(site.peakHeld(), site.budgetAtPeak())
          });
      if (site.fromSummaries() && site.decisions.total() == 0) {
        notes.add(
            site.name
                + ": counts from "
                + Format.count(site.summaryCount)
                + " site summaries (per-decision events off)");
      }
      notes.addAll(site.notes(c));
      if (!site.releasedByCause().isEmpty()) {
        StringBuilder causes = new StringBuilder();
        site.releasedByCause()
            .forEach(
                (cause, bytes) ->
                    causes
                        .append(causes.length() == 0 ? "" : ", ")
                        .append(cause)
                        .append(' ')
                        .append(Format.bytes(bytes)));
        notes.add(site.name + ": released by " + causes);
      }
    }
    table(rows, b, 0, 1, 8, 9);
    for (String note : notes) {
      b.append("  ").append(note).append('\n');
    }
    b.append('\n');
  }

  private static void depthSites(
      String title, Map<String, DepthHistory> sites, boolean prefetch, StringBuilder b) {
    if (sites.isEmpty()) {
      return;
    }
    b.append(title).append('\n');
    for (DepthHistory site : sites.values()) {
      DepthChoice last = site.points.get(site.points.size() - 1);
      b.append("  ").append(site.name);
      if (!site.device.isEmpty()) {
        b.append(" (").append(site.device).append(')');
      }
      b.append(": ")
          .append(Format.count(site.points.size()))
          .append(site.points.size() == 1 ? " decision" : " decisions")
          .append(", last ")
          .append(prefetch ? "depth " : "")
          .append(last.depth)
          .append(prefetch ? "" : " slots")
          .append('\n');
      Map<String, long[]> groups = new LinkedHashMap<>();
      Map<String, DepthChoice> firsts = new LinkedHashMap<>();
      for (DepthChoice p : site.points) {
        String key = p.depth + "|" + p.requested + "|" + p.reason;
        groups.computeIfAbsent(key, k -> new long[1])[0]++;
        firsts.putIfAbsent(key, p);
      }
      List<String[]> rows = new ArrayList<>();
      for (Map.Entry<String, DepthChoice> g : firsts.entrySet()) {
        DepthChoice p = g.getValue();
        String what =
            prefetch
                ? "depth " + p.depth + (p.requested >= 0 ? " (asked " + p.requested + ")" : "")
                : p.depth + " slots";
        String why = prefetch ? Reasons.depth(p.reason, site.device) : Reasons.ring(p.reason);
        if (p.batchBytes > 0
            && (p.reason.equals("CAPACITY")
                || p.reason.endsWith("_FLOOR")
                || p.reason.equals("SYNC_FALLBACK")
                || p.reason.equals("NO_FIT"))) {
          why += ", batch " + Format.bytes(p.batchBytes);
        }
        rows.add(
            new String[] {
              "    " + what, "x" + Format.count(groups.get(g.getKey())[0]), p.reason, why
            });
      }
      table(rows, b, 0, 2, 3);
    }
    b.append('\n');
  }

  private static void memory(BudgetReport r, StringBuilder b) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Memory by tier", "peak held / budget", "", "last budget", "from"});
    for (TierSeries t : r.tiers.values()) {
      if (!t.used()) {
        continue;
      }
      String from =
          t.probes.isEmpty()
              ? "the decisions (no memory probe)"
              : Format.count(t.probes.size())
                  + " probe readings"
                  + (t.decisions.isEmpty() ? "" : " and the decisions");
      rows.add(
          new String[] {
            "  " + t.tier,
            Format.bytes(t.peakHeld()) + " / " + Format.bytes(t.budgetAtPeak()),
            Format.share(t.peakHeld(), t.budgetAtPeak()),
            Format.bytes(t.lastBudget()),
            from
          });
    }
    if (!r.vramTotal.isEmpty()) {
      long used = r.vramUsed.stream().mapToLong(p -> p.held).max().orElse(-1);
      long total = r.vramTotal.get(r.vramTotal.size() - 1).held;
      rows.add(
          new String[] {
            "  vram (used)",
            Format.bytes(used) + " / " + Format.bytes(total),
            Format.share(used, total),
            "",
            Format.count(r.vramTotal.size()) + " probe readings"
          });
    }
    if (rows.size() > 1) {
      table(rows, b, 0, 1, 4);
    }
    String idle = idleTiers(r);
    if (!idle.isEmpty()) {
      b.append("  ").append(idle).append('\n');
    }
    for (Map.Entry<String, RecordedEvent> e : r.lastBudget.entrySet()) {
      RecordedEvent last = e.getValue();
      b.append("  budget computed for ")
          .append(Format.orElse(e.getKey(), "?"))
          .append(' ')
          .append(Format.count(r.budgetCounts.get(e.getKey())))
          .append(" times, last ")
          .append(Format.bytes(EventReader.num(last, BUDGET_BYTES)))
          .append(" = ")
          .append(Format.fraction(EventReader.fraction(last, MAX_USAGE)))
          .append(" of (")
          .append(Format.bytes(EventReader.num(last, AVAILABLE_BYTES)))
          .append(" available + ")
          .append(Format.bytes(EventReader.num(last, HELD_BYTES)))
          .append(" held)");
      double share = EventReader.fraction(last, HOST_SHARE);
      if (!Double.isNaN(share) && share != 1.0) {
        b.append(" x host share ").append(Format.fraction(share));
      }
      if (EventReader.num(last, RING_BYTES) > 0) {
        b.append(" - ring ").append(Format.bytes(EventReader.num(last, RING_BYTES)));
      }
      b.append('\n');
    }
    if (r.lastSplit != null) {
      b.append("  stager split: ")
          .append(Format.bytes(EventReader.num(r.lastSplit, TOTAL_BYTES)))
          .append(" = pinned ")
          .append(Format.bytes(EventReader.num(r.lastSplit, PINNED_BYTES)))
          .append(" + stream ")
          .append(Format.bytes(EventReader.num(r.lastSplit, STREAM_BYTES)))
          .append('\n');
    }
    if (rows.size() > 1 || !r.lastBudget.isEmpty() || r.lastSplit != null) {
      b.append('\n');
    }
  }

  private static void configuration(BudgetReport r, StringBuilder b) {
    if (r.configuration.isEmpty()) {
      b.append(
          "Configuration: not recorded (the agent never installed, or flodl.agent.Configuration was"
              + " disabled in the recording's settings)\n\n");
      return;
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Configuration", "value", "source"});
    for (RecordedSetting s : r.configuration.values()) {
      rows.add(new String[] {"  " + s.key, s.value, s.source});
    }
    table(rows, b, 0, 1, 2);
    b.append('\n');
  }

  private static void instrumented(BudgetReport r, StringBuilder b) {
    if (r.instrumented.isEmpty()) {
      b.append("Instrumented: no class recorded\n");
      return;
    }
    b.append("Instrumented: ").append(outcomes(r)).append('\n');
    r.instrumentProblems.stream().limit(20).forEach(p -> b.append("  ").append(p).append('\n'));
    if (r.instrumentProblems.size() > 20) {
      b.append("  ... and ").append(r.instrumentProblems.size() - 20).append(" more\n");
    }
  }

  /** Returns the line naming the tiers the probe reported but nothing used, or an empty string. */
  static String idleTiers(BudgetReport r) {
    StringBuilder b = new StringBuilder();
    for (TierSeries t : r.tiers.values()) {
      if (!t.used() && !t.probes.isEmpty()) {
        b.append(b.length() == 0 ? "" : ", ")
            .append(t.tier)
            .append(" (budget ")
            .append(Format.bytes(t.lastBudget()))
            .append(')');
      }
    }
    return b.length() == 0 ? "" : "nothing held in " + b;
  }

  /** Returns the weaving outcomes, most frequent first: {@code 2 WOVEN, 1 FAILED}. */
  static String outcomes(BudgetReport r) {
    StringBuilder b = new StringBuilder();
    r.instrumented.entrySet().stream()
        .sorted((x, y) -> Long.compare(y.getValue(), x.getValue()))
        .forEach(
            e ->
                b.append(b.length() == 0 ? "" : ", ")
                    .append(Format.count(e.getValue()))
                    .append(' ')
                    .append(e.getKey()));
    return b.toString();
  }

  /**
   * Appends {@code rows} as a table; the columns listed in {@code left} are left-aligned, others
   * right.
   */
  private static void table(List<String[]> rows, StringBuilder b, int... left) {
    int columns = rows.stream().mapToInt(row -> row.length).max().orElse(0);
    int[] width = new int[columns];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        width[i] = Math.max(width[i], row[i].length());
      }
    }
    Function<Integer, Boolean> isLeft =
        i -> {
          for (int l : left) {
            if (l == i) {
              return true;
            }
          }
          return false;
        };
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        if (width[i] == 0) {
          continue;
        }
        if (i > 0) {
          line.append("  ");
        }
        String cell = row[i];
        String pad = " ".repeat(width[i] - cell.length());
        line.append(isLeft.apply(i) ? cell + pad : pad + cell);
      }
      b.append(line.toString().stripTrailing()).append('\n');
    }
  }
}
