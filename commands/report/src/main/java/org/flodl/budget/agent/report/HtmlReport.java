package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report as one self-contained HTML page: inline CSS and inline SVG charts (held against budget
 * per tier over time, prefetch depth over time), the tables of the text report, and no script, font
 * or image fetched from anywhere.
 */
final class HtmlReport {
  private static final String[] COLORS = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"
  };
  private static final String HELD = "#1f77b4";
  private static final String BUDGET = "#d62728";
  private static final String AVAILABLE = "#8c959f";

  private static final String STYLE =
      "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
          + "margin:24px auto;max-width:1200px;padding:0 16px;color:#1b1f24;background:#fff}"
          + "h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;"
          + "border-bottom:1px solid #d0d7de;padding-bottom:4px}"
          + ".meta{color:#57606a;margin:0 0 12px}"
          + "table{border-collapse:collapse;width:100%;margin:6px 0 4px;font-variant-numeric:tabular-nums}"
          + "th,td{padding:4px 8px;border-bottom:1px solid #eaeef2;text-align:right;white-space:nowrap}"
          + "th{background:#f6f8fa;font-weight:600}th:first-child,td:first-child,td.l,th.l{text-align:left}"
          + "td.why{text-align:left;white-space:normal;color:#57606a}"
          + ".note{color:#57606a;margin:4px 0}.warn{color:#9a6700}"
          + ".sev-warning{color:#9a6700;font-weight:600}.sev-info{color:#0969da}.sev-ok{color:#1a7f37}"
          + ".bar{display:inline-block;height:10px;background:#1f77b4;vertical-align:middle;margin-right:6px}"
          + ".bar.over{background:#d62728}"
          + "svg{display:block;margin:6px 0 14px;border:1px solid #eaeef2;border-radius:6px}"
          + "svg .title{font-size:14px;font-weight:600;fill:#1b1f24}"
          + "svg .axis{font-size:11px;fill:#57606a}svg .legend{font-size:12px;fill:#1b1f24}"
          + "svg .grid{stroke:#eaeef2}svg .tick{stroke:#8c959f}svg .frame{fill:none;stroke:#d0d7de}"
          + "details{margin-top:24px}pre{background:#f6f8fa;padding:12px;overflow:auto;font-size:12px}";

  private HtmlReport() {}

  /** Returns the whole page. */
  static String render(BudgetReport r) {
    StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<title>flodl-budget report: ")
        .append(Format.html(r.file.getFileName().toString()))
        .append("</title>\n<style>")
        .append(STYLE)
        .append("</style>\n</head>\n<body>\n");
    b.append("<h1>flodl-budget report</h1>\n<p class=\"meta\">")
        .append(Format.html(r.file.getFileName().toString()))
        .append(" &middot; ")
        .append(Format.seconds(r.seconds()))
        .append(" recorded from ")
        .append(r.start == null ? "?" : TextReport.TIME.format(r.start))
        .append(" &middot; ")
        .append(Format.count(r.flodlEvents()))
        .append(" flodl events of ")
        .append(Format.count(r.events))
        .append("</p>\n");
    if (r.flodlEvents() == 0) {
      b.append("<p class=\"warn\">")
          .append(Format.html(TextReport.noFlodlEvents(r)))
          .append("</p>\n");
    }
    findings(r, b);
    cacheSites(r, b);
    tierCharts(r, b);
    prefetch(r, b);
    ring(r, b);
    configuration(r, b);
    instrumented(r, b);
    if (r.flodlEvents() > 0) {
      b.append("<details><summary>The text report</summary><pre>")
          .append(Format.html(TextReport.render(r)))
          .append("</pre></details>\n");
    }
    b.append("</body>\n</html>\n");
    return b.toString();
  }

  /** The findings, as Mission Control's automated analysis shows them (the same rules). */
  private static void findings(BudgetReport r, StringBuilder b) {
    if (r.flodlEvents() == 0) {
      return;
    }
    b.append(
        "<h2>Findings</h2>\n<table>\n<tr><th class=\"l\">rule</th><th class=\"l\">"
            + "severity</th><th class=\"l\">finding</th><th class=\"l\">what to do</th></tr>\n");
    for (org.flodl.budget.findings.Finding f : r.findings()) {
      b.append("<tr><td class=\"l\">")
          .append(Format.html(f.rule().title()))
          .append("</td><td class=\"l sev-")
          .append(f.severity().name().toLowerCase(java.util.Locale.ROOT))
          .append("\">")
          .append(f.severity())
          .append("</td><td class=\"l\">")
          .append(Format.html(f.summary()))
          .append("</td><td class=\"l\">")
          .append(Format.html(f.solution()))
          .append("</td></tr>\n");
    }
    b.append("</table>\n");
  }

  private static void cacheSites(BudgetReport r, StringBuilder b) {
    b.append("<h2>Cache sites</h2>\n");
    if (r.cacheSites.isEmpty()) {
      b.append("<p class=\"note\">No cache-admit decision recorded.</p>\n");
      return;
    }
    b.append(
        "<table><tr><th>site</th><th class=\"l\">tier</th><th>admitted</th><th>declined</th>"
            + "<th>materialized</th><th>bytes admitted</th><th>bytes declined</th><th>released</th>"
            + "<th class=\"l\">peak held / budget</th></tr>\n");
    List<String> notes = new ArrayList<>();
    for (CacheLedger site : r.cacheSites.values()) {
      DecisionCounts c = site.counts();
      b.append("<tr><td>")
          .append(Format.html(site.name))
          .append("</td><td class=\"l\">")
          .append(Format.html(site.tier))
          .append("</td><td>")
          .append(Format.count(c.admissions))
          .append("</td><td>")
          .append(Format.count(c.declines))
          .append("</td><td>")
          .append(Format.count(c.materialized))
          .append("</td><td>")
          .append(Format.bytes(c.admittedBytes))
          .append("</td><td>")
          .append(Format.bytes(c.declinedBytes))
          .append("</td><td>")
          .append(Format.bytes(site.releasedBytes()))
          .append("</td><td class=\"l\">")
          .append(bar(site.peakHeld(), site.budgetAtPeak()))
          .append(Format.bytes(site.peakHeld()))
          .append(" / ")
          .append(Format.bytes(site.budgetAtPeak()))
          .append(' ')
          .append(Format.share(site.peakHeld(), site.budgetAtPeak()))
          .append("</td></tr>\n");
      if (site.fromSummaries()) {
        notes.add(
            site.name
                + ": counts from "
                + Format.count(site.summaryCount)
                + " periodic site summaries (the per-decision events were off).");
      }
      for (String note : site.notes(c)) {
        notes.add(note + ".");
      }
    }
    b.append("</table>\n");
    for (String note : notes) {
      b.append("<p class=\"note\">").append(Format.html(note)).append("</p>\n");
    }
  }

  private static String bar(long held, long budget) {
    if (held < 0 || budget <= 0) {
      return "";
    }
    double share = Math.min(1.0, (double) held / budget);
    return "<span class=\"bar"
        + (held > budget ? " over" : "")
        + "\" style=\"width:"
        + Math.round(share * 80)
        + "px\"></span>";
  }

  private static void tierCharts(BudgetReport r, StringBuilder b) {
    List<TierSeries> shown = new ArrayList<>();
    for (TierSeries t : r.tiers.values()) {
      if (t.used()) {
        shown.add(t);
      }
    }
    if (shown.isEmpty() && r.vramTotal.isEmpty()) {
      return;
    }
    b.append("<h2>Held against budget, per tier</h2>\n");
    String idle = TextReport.idleTiers(r);
    if (!idle.isEmpty()) {
      b.append("<p class=\"note\">").append(Format.html(idle)).append("</p>\n");
    }
    for (TierSeries t : shown) {
      List<double[]> held = new ArrayList<>();
      List<double[]> budget = new ArrayList<>();
      List<double[]> available = new ArrayList<>();
      for (Reading p : t.best()) {
        double x = r.at(p.time);
        if (p.held >= 0) {
          held.add(new double[] {x, p.held});
        }
        if (p.budget >= 0) {
          budget.add(new double[] {x, p.budget});
        }
      }
      for (Reading p : t.available()) {
        available.add(new double[] {r.at(p.time), p.available});
      }
      boolean probe = t.best() == t.probes;
      String title =
          t.tier
              + " tier: peak "
              + Format.bytes(t.peakHeld())
              + " held of "
              + Format.bytes(t.budgetAtPeak())
              + (probe ? " (memory probe)" : " (after each decision)");
      List<SvgChart.Series> lines = new ArrayList<>();
      if (!available.isEmpty()) {
        lines.add(new SvgChart.Series("available", AVAILABLE, true, false, available));
      }
      lines.add(new SvgChart.Series("held", HELD, false, !probe, held));
      lines.add(new SvgChart.Series("budget", BUDGET, true, !probe, budget));
      b.append(SvgChart.render(title, true, r.seconds(), lines));
    }
    if (!r.vramTotal.isEmpty()) {
      b.append(
          SvgChart.render(
              "VRAM: used and total",
              true,
              r.seconds(),
              List.of(
                  new SvgChart.Series("used", HELD, false, false, xy(r, r.vramUsed)),
                  new SvgChart.Series("total", BUDGET, true, false, xy(r, r.vramTotal)))));
    }
  }

  private static List<double[]> xy(BudgetReport r, List<Reading> points) {
    List<double[]> out = new ArrayList<>(points.size());
    for (Reading p : points) {
      out.add(new double[] {r.at(p.time), p.held});
    }
    return out;
  }

  private static void prefetch(BudgetReport r, StringBuilder b) {
    if (r.prefetchSites.isEmpty()) {
      return;
    }
    b.append("<h2>Prefetch depth over time</h2>\n");
    List<SvgChart.Series> series = new ArrayList<>();
    int i = 0;
    for (DepthHistory site : r.prefetchSites.values()) {
      String color = COLORS[i++ % COLORS.length];
      List<double[]> depth = new ArrayList<>();
      List<double[]> asked = new ArrayList<>();
      for (DepthChoice p : site.points) {
        depth.add(new double[] {r.at(p.time), p.depth});
        if (p.requested >= 0) {
          asked.add(new double[] {r.at(p.time), p.requested});
        }
      }
      String label = site.name + (site.device.isEmpty() ? "" : " (" + site.device + ")");
      series.add(new SvgChart.Series(label + " depth", color, false, true, depth));
      if (!asked.isEmpty()) {
        series.add(new SvgChart.Series(label + " asked", color, true, true, asked));
      }
    }
    b.append(
        SvgChart.render(
            "Prefetch depth, in batches (dashed: what the application asked)",
            false,
            r.seconds(),
            series));
    depthTable(r.prefetchSites, true, b);
  }

  private static void ring(BudgetReport r, StringBuilder b) {
    if (r.ringSites.isEmpty()) {
      return;
    }
    b.append("<h2>Reader ring</h2>\n");
    depthTable(r.ringSites, false, b);
  }

  private static void depthTable(
      Map<String, DepthHistory> sites, boolean prefetch, StringBuilder b) {
    b.append("<table><tr><th>site</th><th>")
        .append(prefetch ? "depth" : "slots")
        .append(prefetch ? "</th><th>asked" : "")
        .append(
            "</th><th>decisions</th><th class=\"l\">reason</th><th class=\"l\">why</th></tr>\n");
    for (DepthHistory site : sites.values()) {
      Map<String, long[]> counts = new LinkedHashMap<>();
      Map<String, DepthChoice> firsts = new LinkedHashMap<>();
      for (DepthChoice p : site.points) {
        String key = p.depth + "|" + p.requested + "|" + p.reason;
        counts.computeIfAbsent(key, k -> new long[1])[0]++;
        firsts.putIfAbsent(key, p);
      }
      for (Map.Entry<String, DepthChoice> g : firsts.entrySet()) {
        DepthChoice p = g.getValue();
        b.append("<tr><td>")
            .append(
                Format.html(site.name + (site.device.isEmpty() ? "" : " (" + site.device + ")")))
            .append("</td><td>")
            .append(p.depth);
        if (prefetch) {
          b.append("</td><td>").append(p.requested >= 0 ? String.valueOf(p.requested) : "");
        }
        b.append("</td><td>")
            .append(Format.count(counts.get(g.getKey())[0]))
            .append("</td><td class=\"l\">")
            .append(Format.html(p.reason))
            .append("</td><td class=\"why\">")
            .append(
                Format.html(
                    prefetch ? Reasons.depth(p.reason, site.device) : Reasons.ring(p.reason)))
            .append(p.batchBytes > 0 ? ", batch " + Format.bytes(p.batchBytes) : "")
            .append("</td></tr>\n");
      }
    }
    b.append("</table>\n");
  }

  private static void configuration(BudgetReport r, StringBuilder b) {
    b.append("<h2>Effective configuration</h2>\n");
    if (r.configuration.isEmpty()) {
      b.append("<p class=\"note\">Not recorded (flodl.agent.Configuration was off).</p>\n");
      return;
    }
    b.append(
        "<table style=\"width:auto\"><tr><th>key</th><th class=\"l\">value</th><th class=\"l\">source</th></tr>\n");
    for (RecordedSetting s : r.configuration.values()) {
      b.append("<tr><td>")
          .append(Format.html(s.key))
          .append("</td><td class=\"l\">")
          .append(Format.html(s.value))
          .append("</td><td class=\"l\">")
          .append(Format.html(s.source))
          .append("</td></tr>\n");
    }
    b.append("</table>\n");
  }

  private static void instrumented(BudgetReport r, StringBuilder b) {
    if (r.instrumented.isEmpty()) {
      return;
    }
    b.append("<h2>Instrumented classes</h2>\n<p>")
        .append(Format.html(TextReport.outcomes(r)))
        .append("</p>\n");
    for (String problem : r.instrumentProblems) {
      b.append("<p class=\"warn\">").append(Format.html(problem)).append("</p>\n");
    }
  }
}
