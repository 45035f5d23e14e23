package org.flodl.budget.agent.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -jar flodl-budget-agent.jar report FILE.jfr [--html REPORT.html]}: reads a recording
 * (a file, the {@code FILE.chunks/} a killed JVM left when it never wrote the file, or a folder of
 * JFR chunks) and prints what the budget did, its findings first, in ten seconds of reading; with
 * {@code --html} also writes one self-contained page with charts. A recording without flodl events
 * says so (exit 0); a file that is not a recording, or a usage error, is one clear line on stderr
 * and exit code 2.
 */
public final class ReportCommand {
  /** Exit code of a report printed. */
  public static final int OK = 0;

  /**
   * Exit code of a usage error, a missing file, a file that is not a recording, or an unwritable
   * page.
   */
  public static final int BAD_INPUT = 2;

  static final String USAGE =
      "usage: java -jar flodl-budget-agent.jar report FILE.jfr [--html REPORT.html]";

  private ReportCommand() {}

  /**
   * Returns the exit code of reporting on the recording named in {@code args} (the arguments after
   * {@code report}; a leading {@code report} is skipped), writing the report to {@code out} and
   * problems to {@code err}.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> rest = Arrays.asList(args);
    if (!rest.isEmpty() && rest.get(0).equals("report") && rest.size() > 1) {
      rest = rest.subList(1, rest.size());
    }
    Path recording = null;
    Path html = null;
    for (int i = 0; i < rest.size(); i++) {
      String arg = rest.get(i);
      if (arg.equals("--html")) {
        if (i + 1 >= rest.size()) {
          err.println("flodl-budget report: --html needs a file name\n" + USAGE);
          return BAD_INPUT;
        }
        html = Path.of(rest.get(++i));
      } else if (arg.startsWith("--html=")) {
        html = Path.of(arg.substring("--html=".length()));
      } else if (arg.equals("-h") || arg.equals("--help")) {
        out.println(USAGE);
        return OK;
      } else if (arg.startsWith("-")) {
        err.println("flodl-budget report: unknown option " + arg + "\n" + USAGE);
        return BAD_INPUT;
      } else if (recording == null) {
        recording = Path.of(arg);
      } else {
        err.println(
            "flodl-budget report: one recording at a time, got "
                + recording
                + " and "
                + arg
                + "\n"
                + USAGE);
        return BAD_INPUT;
      }
    }
    if (recording == null) {
      err.println(USAGE);
      return BAD_INPUT;
    }
    Path chunks =
        recording.resolveSibling(
            recording.getFileName() + org.flodl.budget.events.RecordingFiles.CHUNKS);
    if (Files.isDirectory(chunks)
        && !Files.isDirectory(recording)
        && (!Files.isRegularFile(recording) || sizeOf(recording) == 0)) {
      // The JVM did not exit cleanly (kill -9), or runs still: the chunks it kept while it ran.
      out.println(
          "Reading "
              + chunks
              + ": "
              + recording
              + " was never written (the JVM did not "
              + "exit cleanly, or it is still running); its chunks hold all but the last second or two.");
      recording = chunks;
    }
    if (!Files.isRegularFile(recording) && !Files.isDirectory(recording)) {
      err.println("flodl-budget report: " + recording + ": no such file");
      return BAD_INPUT;
    }
    BudgetReport report;
    try {
      report = BudgetReport.read(recording);
    } catch (IOException e) {
      err.println(
          "flodl-budget report: "
              + recording
              + " is not a JFR recording ("
              + Format.orElse(e.getMessage(), e.getClass().getSimpleName())
              + ")");
      return BAD_INPUT;
    } catch (RuntimeException e) {
      err.println("flodl-budget report: cannot read " + recording + " (" + e + ")");
      return BAD_INPUT;
    }
    if (report.flodlEvents() == 0) {
      out.println(TextReport.noFlodlEvents(report));
    } else {
      out.print(TextReport.render(report));
    }
    if (html != null) {
      try {
        Files.writeString(html, HtmlReport.render(report), StandardCharsets.UTF_8);
      } catch (IOException e) {
        err.println("flodl-budget report: cannot write " + html + " (" + e + ")");
        return BAD_INPUT;
      }
      out.println("HTML report written to " + html);
    }
    out.flush();
    return OK;
  }

  private static long sizeOf(Path p) {
    try {
      return Files.size(p);
    } catch (java.io.IOException e) {
      return -1;
    }
  }
}
