package org.flodl.budget.testing;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A child process of a test, the one way the modules' tests start one: its environment cleaned of
 * what would change it behind the test's back, its stdout and stderr kept in files (a child that
 * prints much never blocks on a full pipe), and killed when it outlives its timeout, which fails
 * the test with what it printed.
 */
public final class ChildProcess {
  private ChildProcess() {}

  /** What a child printed and how it ended. */
  public record Output(String name, int exitCode, String stdout, String stderr) {
    /** Returns the value of the first stdout word {@code KEY=value} (up to a space). */
    public String value(String key) {
      for (String line : stdout.split("\n")) {
        for (String part : line.trim().split(" ")) {
          if (part.startsWith(key + "=")) {
            return part.substring(key.length() + 1);
          }
        }
      }
      throw new AssertionError(name + ": no " + key + "= in stdout:\n" + this);
    }

    /** Returns every stdout line {@code KEY=VALUE} (split at its first {@code =}), in order. */
    public Map<String, String> values() {
      Map<String, String> out = new LinkedHashMap<>();
      for (String line : stdout.split("\\R")) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          out.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
        }
      }
      return out;
    }

    @Override
    public String toString() {
      return name + " exit=" + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }

  /** Returns the java launcher of the JVM the test runs on. */
  public static Path java() {
    return Path.of(System.getProperty("java.home"), "bin", "java");
  }

  /** Returns the class path of the folders or jars that {@code anchors} were loaded from. */
  public static String classPathOf(Class<?>... anchors) {
    List<String> entries = new ArrayList<>();
    for (Class<?> c : anchors) {
      try {
        String e =
            Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        if (!entries.contains(e)) {
          entries.add(e);
        }
      } catch (URISyntaxException | RuntimeException e) {
        throw new AssertionError("cannot tell where " + c.getName() + " was loaded from", e);
      }
    }
    return String.join(File.pathSeparator, entries);
  }

  /** Returns {@code java [jvmOptions] -cp classPath main [args]} on this test's JVM. */
  public static List<String> javaCommand(
      List<String> jvmOptions, String classPath, String main, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(java().toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(main);
    cmd.addAll(args);
    return cmd;
  }

  /**
   * Removes from a child's environment what would change it behind the test's back: the agent's own
   * {@code FLODL_BUDGET_*} settings, and the JVM options a runner may set for every JVM ({@code
   * JAVA_TOOL_OPTIONS}, {@code _JAVA_OPTIONS}, {@code JDK_JAVA_OPTIONS}: each makes the JVM print a
   * line on stderr and take options no test chose).
   */
  public static void clean(Map<String, String> env) {
    env.keySet()
        .removeIf(
            k ->
                k.startsWith("FLODL_BUDGET_")
                    || k.equals("JAVA_TOOL_OPTIONS")
                    || k.equals("_JAVA_OPTIONS")
                    || k.equals("JDK_JAVA_OPTIONS"));
  }

  /** Starts {@code command} as child {@code name}: its output in {@code work}/NAME.out and .err. */
  public static Process start(String name, List<String> command, Path work) throws IOException {
    return start(name, command, work, Map.of());
  }

  /** {@link #start(String, List, Path)} with {@code env} added to the cleaned environment. */
  public static Process start(String name, List<String> command, Path work, Map<String, String> env)
      throws IOException {
    Files.createDirectories(work);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.redirectOutput(work.resolve(name + ".out").toFile());
    pb.redirectError(work.resolve(name + ".err").toFile());
    clean(pb.environment());
    pb.environment().putAll(env);
    return pb.start();
  }

  /**
   * Waits for child {@code name}, started by {@link #start} in {@code work}, and returns what it
   * printed; past {@code timeoutSeconds} it is killed and the test fails with its output.
   */
  public static Output await(String name, Process p, Path work, long timeoutSeconds)
      throws IOException, InterruptedException {
    if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          name
              + " ran past "
              + timeoutSeconds
              + " s and was killed; "
              + new Output(name, -1, printed(name, ".out", work), printed(name, ".err", work)));
    }
    return new Output(
        name, p.exitValue(), printed(name, ".out", work), printed(name, ".err", work));
  }

  /** Runs {@code command} as child {@code name} to its end (see {@link #await}). */
  public static Output run(String name, List<String> command, Path work, long timeoutSeconds)
      throws IOException, InterruptedException {
    return await(name, start(name, command, work), work, timeoutSeconds);
  }

  /** Returns what child {@code name} has printed so far to {@code .out} or {@code .err}. */
  public static String printed(String name, String stream, Path work) throws IOException {
    Path p = work.resolve(name + stream);
    return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
  }
}
