package org.flodl.budget.agent.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.flodl.budget.testing.ChildProcess;

/**
 * Runs a test app that lives on its own class path (test-apps/djl-app, test-apps/dl4j-app: {@code
 * target/classes} and {@code target/classpath.txt}, built by the reactor before the agent's ITs) in
 * a child JVM, with or without {@code -javaagent} (with {@code record=FILE}: the agent's recording,
 * written at exit), stdout and stderr captured; a child that outlives its timeout is killed and
 * fails the test. A missing app build fails the test with the command that makes it.
 */
final class AppJvm {
  static final AppJvm DJL = new AppJvm("djl-app", "flodl.it.djlApp");
  static final AppJvm DL4J = new AppJvm("dl4j-app", "flodl.it.dl4jApp");

  final Path dir;
  private final String module;

  private AppJvm(String module, String property) {
    this.module = module;
    this.dir = Path.of(System.getProperty(property, "../test-apps/" + module + "/target"));
  }

  /** Returns the app's runtime class path, or fails saying how to build it. */
  String classPath() throws IOException {
    Path classes = dir.resolve("classes");
    Path cp = dir.resolve("classpath.txt");
    if (!Files.isDirectory(classes) || !Files.exists(cp)) {
      throw new AssertionError(
          "test-apps/"
              + module
              + " is not built ("
              + dir.toAbsolutePath()
              + "): run `mvn -B -pl agent -am verify` (the agent's test dependency builds it)");
    }
    return classes.toAbsolutePath()
        + java.io.File.pathSeparator
        + Files.readString(cp, StandardCharsets.UTF_8).trim();
  }

  /**
   * Runs {@code mainClass} of the app; {@code agentArgs} null runs it without the agent. Returns
   * what it printed and recorded.
   */
  ChildJvm.Result run(String name, String agentArgs, String mainClass, String... args)
      throws IOException, InterruptedException {
    return run(name, agentArgs, List.of(), mainClass, args);
  }

  /** {@link #run(String, String, String, String...)} with {@code jvmArgs} before the class. */
  ChildJvm.Result run(
      String name, String agentArgs, List<String> jvmArgs, String mainClass, String... args)
      throws IOException, InterruptedException {
    Files.createDirectories(ChildJvm.WORK);
    Path recording = ChildJvm.WORK.resolve(name + ".jfr");
    Files.deleteIfExists(recording);
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    if (agentArgs != null) {
      // The recording the way users ask for it: record=FILE, written at exit.
      cmd.add(
          "-javaagent:"
              + ChildJvm.AGENT_JAR.toAbsolutePath()
              + "="
              + (agentArgs.isEmpty() ? "" : agentArgs + ",")
              + "record="
              + recording.toAbsolutePath());
    }
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath());
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    Path out = ChildJvm.WORK.resolve(name + ".out");
    Path err = ChildJvm.WORK.resolve(name + ".err");
    // The engines' native math on one thread: a loaded machine then slows a run in proportion,
    // instead of their threads spinning against each other and the load (OpenMP, OpenBLAS, MKL).
    Process p =
        ChildProcess.start(
            name,
            cmd,
            ChildJvm.WORK,
            Map.of("OMP_NUM_THREADS", "1", "OPENBLAS_NUM_THREADS", "1", "MKL_NUM_THREADS", "1"));
    if (!p.waitFor(600, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError(
          name
              + " ran past 600 s and was killed; stdout:\n"
              + Files.readString(out)
              + "\nstderr:\n"
              + Files.readString(err));
    }
    return new ChildJvm.Result(
        name, p.exitValue(), Files.readString(out), Files.readString(err), recording);
  }

  /** Returns the loss of each epoch line {@code epoch=N loss=X ...}, in order. */
  static List<Double> losses(ChildJvm.Result r) {
    List<Double> l = new ArrayList<>();
    for (String v : epochValues(r, "loss")) {
      l.add(Double.parseDouble(v));
    }
    return l;
  }

  /** Returns the batches of each epoch line, in order. */
  static List<Integer> batches(ChildJvm.Result r) {
    return epochInts(r, "batches");
  }

  /** Returns {@code key}'s value on each epoch line, in order, as text. */
  static List<String> epochTexts(ChildJvm.Result r, String key) {
    return epochValues(r, key);
  }

  /** Returns {@code key}'s integer value on each epoch line, in order. */
  static List<Integer> epochInts(ChildJvm.Result r, String key) {
    List<Integer> l = new ArrayList<>();
    for (String v : epochValues(r, key)) {
      l.add(Integer.parseInt(v));
    }
    return l;
  }

  private static List<String> epochValues(ChildJvm.Result r, String key) {
    List<String> l = new ArrayList<>();
    for (String line : r.stdout.split("\n")) {
      if (line.startsWith("epoch=")) {
        for (String part : line.trim().split(" ")) {
          if (part.startsWith(key + "=")) {
            l.add(part.substring(key.length() + 1));
          }
        }
      }
    }
    return l;
  }
}
