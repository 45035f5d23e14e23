package org.flodl.budget.agent.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs test-apps/djl-app (TrainDjl, ConstructIterable) in a child JVM on its own class path
 * ({@code target/classes} and {@code target/classpath.txt}, built by the reactor before the
 * agent's ITs), with or without {@code -javaagent} (with {@code record=FILE}: the agent's recording,
 * written at exit), stdout and stderr
 * captured; a child that outlives its timeout is killed and fails the test. A missing app build
 * fails the test with the command that makes it.
 */
final class DjlApp {
  static final Path APP = Path.of(System.getProperty("flodl.it.djlApp",
      "../test-apps/djl-app/target"));

  private DjlApp() {}

  /** Returns the app's runtime class path, or fails saying how to build it. */
  static String classPath() throws IOException {
    Path classes = APP.resolve("classes");
    Path cp = APP.resolve("classpath.txt");
    if (!Files.isDirectory(classes) || !Files.exists(cp)) {
      throw new AssertionError("test-apps/djl-app is not built (" + APP.toAbsolutePath()
          + "): run `mvn -B -pl agent -am verify` (the agent's test dependency builds it)");
    }
    return classes.toAbsolutePath() + java.io.File.pathSeparator
        + Files.readString(cp, StandardCharsets.UTF_8).trim();
  }

  /**
   * Runs {@code mainClass} of the app; {@code agentArgs} null runs it without the agent.
   * Returns what it printed and recorded.
   */
  static ChildJvm.Result run(String name, String agentArgs, String mainClass, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(ChildJvm.WORK);
    Path recording = ChildJvm.WORK.resolve(name + ".jfr");
    Files.deleteIfExists(recording);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (agentArgs != null) {
      // The recording the way users ask for it: record=FILE, written at exit.
      cmd.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "="
          + (agentArgs.isEmpty() ? "" : agentArgs + ",") + "record=" + recording.toAbsolutePath());
    }
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    Path out = ChildJvm.WORK.resolve(name + ".out");
    Path err = ChildJvm.WORK.resolve(name + ".err");
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile())
        .redirectError(err.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("FLODL_BUDGET_"));
    Process p = pb.start();
    if (!p.waitFor(600, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(name + " ran past 600 s and was killed; stdout:\n"
          + Files.readString(out) + "\nstderr:\n" + Files.readString(err));
    }
    return new ChildJvm.Result(name, p.exitValue(), Files.readString(out), Files.readString(err),
        recording);
  }

  /** Returns the loss of each epoch line {@code epoch=N loss=X ...}, in order. */
  static List<Double> losses(ChildJvm.Result r) {
    List<Double> l = new ArrayList<>();
    for (String line : r.stdout.split("\n")) {
      if (line.startsWith("epoch=")) {
        for (String part : line.trim().split(" ")) {
          if (part.startsWith("loss=")) {
            l.add(Double.parseDouble(part.substring(5)));
          }
        }
      }
    }
    return l;
  }

  /** Returns the batches of each epoch line, in order. */
  static List<Integer> batches(ChildJvm.Result r) {
    List<Integer> l = new ArrayList<>();
    for (String line : r.stdout.split("\n")) {
      if (line.startsWith("epoch=")) {
        for (String part : line.trim().split(" ")) {
          if (part.startsWith("batches=")) {
            l.add(Integer.parseInt(part.substring(8)));
          }
        }
      }
    }
    return l;
  }
}
