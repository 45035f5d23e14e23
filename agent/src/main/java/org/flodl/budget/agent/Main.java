package org.flodl.budget.agent;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Arrays;
import java.util.List;
import org.flodl.budget.agent.config.ConfigException;
import org.flodl.budget.agent.config.Presets;

/**
 * The jar's command line: {@code java -jar flodl-budget-agent.jar attach PID [args]} starts the
 * agent in a running JVM, {@code report FILE [--html out.html]} summarizes a recording, {@code
 * presets [NAME]} prints the built-in site sets, {@code suggest PATH...} writes a sites file for
 * the application in PATH. Returns its exit code through {@link System#exit}: 0 done, 1 failed, 2
 * bad usage. {@code attach}, {@code report} and {@code suggest} (with the findings the report
 * draws) are not on the jar's class path: they are under {@value #CLI} in the jar, loaded by a
 * loader of their own, so that no class an agent run weaves, on the boot class path or not, can see
 * them.
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
        return command("attach", "org.flodl.budget.agent.cli.AttachCommand", rest, out, err);
      case "report":
        return command("report", "org.flodl.budget.agent.report.ReportCommand", rest, out, err);
      case "presets":
        return presets(rest, out, err);
      case "suggest":
        return command("suggest", "org.flodl.budget.agent.suggest.SuggestCommand", rest, out, err);
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

  /** The folder of the jar that holds the command line's classes. */
  static final String CLI = "META-INF/flodl-budget/cli/";

  /**
   * Runs command {@code word}: class {@code name}'s {@code run(String[], PrintStream,
   * PrintStream)}; a failure inside it is one line and exit status 1.
   */
  private static int command(
      String word, String name, String[] args, PrintStream out, PrintStream err) {
    try {
      Class<?> c = Class.forName(name, true, commandLoader(name));
      return (Integer)
          c.getMethod("run", String[].class, PrintStream.class, PrintStream.class)
              .invoke(null, args, out, err);
    } catch (InvocationTargetException e) {
      err.println("flodl-budget: " + word + " failed: " + e.getCause());
      return 1;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError | IOException e) {
      err.println("flodl-budget: " + word + " cannot be loaded from the agent jar (" + e + ")");
      return 1;
    }
  }

  /**
   * Returns the loader of the command line's classes: one over {@value #CLI} of the jar this class
   * came from, its parent this class's loader; where they are not there (the build's own classes
   * folder, in its tests), this class's loader.
   */
  private static ClassLoader commandLoader(String name) throws IOException {
    ClassLoader own = Main.class.getClassLoader();
    String file = CLI + name.replace('.', '/') + ".class";
    URL nested = own == null ? ClassLoader.getSystemResource(file) : own.getResource(file);
    if (nested == null) {
      return own;
    }
    String url = nested.toString();
    return new URLClassLoader(
        new URL[] {new URL(url.substring(0, url.length() - (file.length() - CLI.length())))}, own);
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
    s.println(
        "       java -jar flodl-budget-agent.jar suggest [--package PREFIX]... [--check]"
            + " PATH...");
    return 2;
  }
}
