package org.flodl.budget.agent.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A line chart drawn as inline SVG, so the HTML report needs no script and no network: time in
 * seconds across, bytes (in binary units) or batches up, one polyline per series, step lines for
 * decisions that hold until the next one.
 */
final class SvgChart {
  static final int WIDTH = 1000;
  static final int HEIGHT = 260;
  private static final int LEFT = 84;
  private static final int RIGHT = 16;
  private static final int TOP = 34;
  private static final int BOTTOM = 34;
  private static final int MAX_POINTS = 1200;

  /** One line: its name, colour, whether dashed and whether a step line, and its (x, y) points. */
  record Series(String name, String color, boolean dashed, boolean step, List<double[]> points) {}

  private SvgChart() {}

  /** Returns an SVG element charting {@code series} from 0 to {@code xMax} seconds. */
  static String render(String title, boolean bytes, double xMax, List<Series> series) {
    double yMax = 0;
    for (Series s : series) {
      for (double[] p : s.points()) {
        yMax = Math.max(yMax, p[1]);
      }
    }
    double xEnd = Math.max(xMax, 1e-3);
    double[] ticks = bytes ? byteTicks(yMax) : countTicks(yMax);
    double yEnd = ticks[ticks.length - 1];
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    StringBuilder b = new StringBuilder();
    b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(HEIGHT)
        .append("\" width=\"100%\" aria-label=\"")
        .append(Format.html(title))
        .append("\">\n");
    b.append("<text x=\"")
        .append(LEFT)
        .append("\" y=\"18\" class=\"title\">")
        .append(Format.html(title))
        .append("</text>\n");
    for (double tick : ticks) {
      double y = TOP + plotH - tick / yEnd * plotH;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" class=\"grid\"/>"
                  + "<text x=\"%d\" y=\"%.1f\" class=\"axis\" text-anchor=\"end\">%s</text>%n",
              LEFT,
              y,
              WIDTH - RIGHT,
              y,
              LEFT - 6,
              y + 4,
              Format.html(
                  bytes ? Format.bytes(Math.round(tick)) : String.valueOf(Math.round(tick)))));
    }
    for (double tick : timeTicks(xEnd)) {
      double x = LEFT + tick / xEnd * plotW;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" class=\"tick\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s s</text>%n",
              x,
              TOP + (int) plotH,
              x,
              TOP + (int) plotH + 4,
              x,
              HEIGHT - 12,
              trim(tick)));
    }
    double legendX = WIDTH - RIGHT;
    for (int i = series.size() - 1; i >= 0; i--) {
      Series s = series.get(i);
      double textW = 7.2 * s.name().length();
      legendX -= textW + 34;
      b.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"14\" x2=\"%.1f\" y2=\"14\" stroke=\"%s\" stroke-width=\"3\"%s/>"
                  + "<text x=\"%.1f\" y=\"18\" class=\"legend\">%s</text>%n",
              legendX,
              legendX + 22,
              s.color(),
              s.dashed() ? " stroke-dasharray=\"6 4\"" : "",
              legendX + 27,
              Format.html(s.name())));
    }
    for (Series s : series) {
      List<double[]> points = thin(s.points());
      if (points.isEmpty()) {
        continue;
      }
      StringBuilder path = new StringBuilder();
      double lastY = Double.NaN;
      for (double[] p : points) {
        double x = LEFT + p[0] / xEnd * plotW;
        double y = TOP + plotH - p[1] / yEnd * plotH;
        if (s.step() && !Double.isNaN(lastY)) {
          path.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, lastY));
        }
        path.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
        lastY = y;
      }
      if (s.step()) {
        path.append(String.format(Locale.ROOT, "%.1f,%.1f", LEFT + plotW, lastY));
      }
      b.append("<polyline fill=\"none\" stroke=\"")
          .append(s.color())
          .append("\" stroke-width=\"2\"")
          .append(s.dashed() ? " stroke-dasharray=\"6 4\"" : "")
          .append(" points=\"")
          .append(path.toString().trim())
          .append("\"/>\n");
      if (points.size() == 1) {
        double[] p = points.get(0);
        b.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n",
                LEFT + p[0] / xEnd * plotW,
                TOP + plotH - p[1] / yEnd * plotH,
                s.color()));
      }
    }
    b.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" class=\"frame\"/>%n",
            LEFT,
            TOP,
            plotW,
            plotH));
    b.append("</svg>\n");
    return b.toString();
  }

  /**
   * Returns at most MAX_POINTS points, keeping each bucket's highest reading (peaks stay visible).
   */
  static List<double[]> thin(List<double[]> points) {
    if (points.size() <= MAX_POINTS) {
      return points;
    }
    List<double[]> out = new ArrayList<>(MAX_POINTS);
    double per = (double) points.size() / MAX_POINTS;
    for (int bucket = 0; bucket < MAX_POINTS; bucket++) {
      int from = (int) Math.floor(bucket * per);
      int to = (int) Math.min(points.size(), Math.floor((bucket + 1) * per));
      double[] best = null;
      for (int i = from; i < to; i++) {
        if (best == null || points.get(i)[1] > best[1]) {
          best = points.get(i);
        }
      }
      if (best != null) {
        out.add(new double[] {points.get(from)[0], best[1]});
      }
    }
    return out;
  }

  /**
   * Returns the y ticks for bytes: 0 and steps of 1, 2 or 5 of a binary unit, ending at or above
   * max.
   */
  static double[] byteTicks(double max) {
    double unit = 1;
    while (max >= unit * 1024 && unit < Math.pow(1024, 6)) {
      unit *= 1024;
    }
    return ticks(max / unit, unit);
  }

  /** Returns the y ticks for counts: whole numbers ending at or above max. */
  static double[] countTicks(double max) {
    return ticks(Math.max(max, 1), 1);
  }

  private static double[] ticks(double max, double unit) {
    double span = Math.max(max, 1e-9);
    double step = 1;
    double[] mult = {1, 2, 5};
    outer:
    for (double decade = 1e-3; decade < 1e7; decade *= 10) {
      for (double m : mult) {
        if (span / (m * decade) <= 5) {
          step = m * decade;
          break outer;
        }
      }
    }
    if (unit == 1 && step < 1) {
      step = 1;
    }
    int n = (int) Math.ceil(span / step - 1e-9);
    n = Math.max(n, 1);
    double[] out = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      out[i] = i * step * unit;
    }
    return out;
  }

  /** Returns the x ticks: about eight round values of seconds from 0. */
  static double[] timeTicks(double max) {
    double[] steps = {
      0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 21600,
      43200, 86400
    };
    double step = steps[steps.length - 1];
    for (double s : steps) {
      if (max / s <= 8) {
        step = s;
        break;
      }
    }
    int n = (int) Math.floor(max / step + 1e-9);
    double[] out = new double[n + 1];
    for (int i = 0; i <= n; i++) {
      out[i] = i * step;
    }
    return out;
  }

  private static String trim(double v) {
    return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
  }
}
