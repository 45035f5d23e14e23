package org.flodl.budget.agent;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import org.flodl.budget.agent.config.ConfigException;
import org.flodl.budget.agent.config.Presets;

/**
 * The jar's command line: {@code java -jar flodl-budget-agent.jar attach PID [args]} starts the
 * agent in a running JVM, {@code report FILE [--html out.html]} summarizes a recording, {@code
 * presets [NAME]} prints the built-in site sets, {@code suggest PATH...} writes a sites file for
 * the application in PATH. Returns
 * its exit code through {@link System#exit}: 0 done, 1 failed, 2 bad usage.
 */
public final class Main {
  private Main() {}

  /** Runs the command. */
  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Returns the exit code of the command {@code args}. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0) {
      return usage(err);
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "attach":
        return AttachCommand.run(rest, out, err);
      case "report":
        return report(rest, out, err);
      case "presets":
        return presets(rest, out, err);
      case "suggest":
        return org.flodl.budget.agent.suggest.SuggestCommand.run(rest, out, err);
      case "-h":
      case "--help":
      case "help":
        usage(out);
        return 0;
      default:
        err.println("flodl-budget: unknown command '" + args[0] + "'");
        return usage(err);
    }
  }

  /** Runs the report command; a failure inside it is one line and exit status 1. */
  private static int report(String[] args, PrintStream out, PrintStream err) {
    try {
      return org.flodl.budget.agent.report.ReportCommand.run(args, out, err);
    } catch (RuntimeException | LinkageError e) {
      err.println("flodl-budget: report failed: " + e);
      return 1;
    }
  }

  /** Prints preset {@code NAME}, or every preset, in the sites file's format. */
  private static int presets(String[] args, PrintStream out, PrintStream err) {
    if (args.length > 1) {
      err.println("usage: java -jar flodl-budget-agent.jar presets [NAME]");
      return 2;
    }
    try {
      List<String> names = args.length == 1 ? List.of(args[0]) : Presets.NAMES;
      for (int i = 0; i < names.size(); i++) {
        if (i > 0) {
          out.println();
        }
        out.print(Presets.text(names.get(i)));
      }
      return 0;
    } catch (ConfigException e) {
      err.println("flodl-budget: " + e.detail());
      return 2;
    }
  }

  private static int usage(PrintStream s) {
    s.println("usage: java -jar flodl-budget-agent.jar attach PID [key=value,...]");
    s.println("       java -jar flodl-budget-agent.jar report FILE.jfr [--html out.html]");
    s.println("       java -jar flodl-budget-agent.jar presets [NAME]");
    s.println("       java -jar flodl-budget-agent.jar suggest [--package PREFIX]... [--check]"
        + " PATH...");
    return 2;
  }
}
