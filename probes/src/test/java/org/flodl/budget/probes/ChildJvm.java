package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flodl.budget.testing.ChildProcess;

/**
 * Runs a main class of the test sources in a child JVM and collects its {@code key=value} lines.
 */
final class ChildJvm {
  private static final Path WORK = Path.of("target", "child-jvms");

  private ChildJvm() {}

  /**
   * Returns the child's {@code key=value} stdout lines as a map, and all it printed under {@code
   * _output}; fails the test on a bad exit.
   */
  static Map<String, String> run(
      String classPath, List<String> jvmArgs, Class<?> main, String... args)
      throws IOException, InterruptedException {
    ChildProcess.Output out =
        ChildProcess.run(
            main.getSimpleName() + "-" + String.join("-", args).replaceAll("[^A-Za-z0-9.-]", "_"),
            ChildProcess.javaCommand(jvmArgs, classPath, main.getName(), List.of(args)),
            WORK,
            120);
    assertEquals(0, out.exitCode(), "child JVM failed:\n" + out);
    Map<String, String> values = new HashMap<>(out.values());
    values.put("_output", out.toString());
    return values;
  }

  /** Returns this test JVM's class path. */
  static String testClassPath() {
    return System.getProperty("java.class.path");
  }
}
