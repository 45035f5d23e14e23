package org.flodl.budget.agent.report;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Records the {@link TrainingScenario} for a few seconds and writes its text and HTML reports: the
 * recording behind docs/report-screenshot.png. Run from the agent module's test class path: {@code
 * java -cp ... org.flodl.budget.agent.report.ReportDemo budget.jfr report.html}.
 */
public final class ReportDemo {
  private ReportDemo() {}

  public static void main(String[] args) throws Exception {
    Path jfr = Path.of(args.length > 0 ? args[0] : "budget.jfr");
    Path html = Path.of(args.length > 1 ? args[1] : "report.html");
    TrainingScenario.record(jfr, 200, Duration.ofSeconds(8), Duration.ofMillis(100), true);
    System.exit(
        ReportCommand.run(
            new String[] {jfr.toString(), "--html", html.toString()}, System.out, System.err));
  }
}
