package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs a main class of the test sources in a child JVM and collects its {@code key=value} lines. */
final class ChildJvm {
  private ChildJvm() {}

  /** Returns the child's {@code key=value} output lines as a map; fails the test on a bad exit. */
  static Map<String, String> run(String classPath, List<String> jvmArgs, Class<?> main,
      String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child JVM did not finish");
    String text = new String(out, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), "child JVM failed:\n" + text);
    Map<String, String> values = new HashMap<>();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0 && !line.startsWith("WARNING")) {
        values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
      }
    }
    values.put("_output", text);
    return values;
  }

  /** Returns this test JVM's class path. */
  static String testClassPath() {
    return System.getProperty("java.class.path");
  }
}
