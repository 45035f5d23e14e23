package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The probes' JNA and an application's own JNA in one JVM: a child JVM whose class path carries the
 * application's JNA (5.14.0 as an older DJL ships it, or 5.17.0 as DJL 0.36 does) while the probes
 * load 5.17.0 in an isolated loader; both call libc, in both orders.
 */
class JnaCoexistenceTest {

  @ParameterizedTest(name = "app JNA {0}, probes JNA {1}, {2}")
  @CsvSource({
    "old, current, app-first",
    "old, current, ours-first",
    "current, current, app-first",
    "current, current, ours-first"
  })
  void bothCopiesOfJnaWorkInOneJvm(String appJna, String ourJna, String order) throws Exception {
    assumeTrue(System.getProperty("os.name").equals("Linux"), "calls libc.so.6");
    Path appJar = jar(appJna);
    Path ourJar = jar(ourJna);
    String classPath =
        String.join(
            File.pathSeparator,
            Path.of("target", "classes").toAbsolutePath().toString(),
            Path.of("target", "test-classes").toAbsolutePath().toString(),
            appJar.toString());
    Map<String, String> v =
        ChildJvm.run(classPath, List.of(), JnaCoexistenceMain.class, ourJar.toString(), order);
    String out = v.get("_output");
    String pid = v.get("pid");
    assertEquals(version(appJna), v.get("app1.version"), out);
    assertEquals(version(ourJna), v.get("ours.version"), out);
    assertEquals(pid, v.get("app1.getpid"), out);
    assertEquals(pid, v.get("ours.getpid"), out);
    assertEquals(pid, v.get("ours.getpid.again"), out);
    if (order.equals("app-first")) {
      assertEquals(pid, v.get("app2.getpid"), "the app's JNA still works after ours\n" + out);
    }
    assertNotEquals("flodl-budget-jna", v.get("app1.loader"), out);
    // NVML ran on the probes' own JNA: the reason is about the GPU library, not about JNA.
    String nvml = v.get("ours.nvml");
    assertTrue(nvml.contains("not found") || nvml.contains("nvmlInit_v2 failed"), out);
    assertFalse(nvml.contains("JNA"), out);
    assertFalse(v.get("ours.auto").contains("JNA"), out);
  }

  @Test
  void withoutAnApplicationJnaTheProbesUseTheOneTheAgentJarCarries(@TempDir Path agentJar)
      throws Exception {
    assumeTrue(System.getProperty("os.name").equals("Linux"), "looks up libnvidia-ml.so.1");
    Path nested = agentJar.resolve(JnaLoaders.NESTED_JAR_RESOURCE);
    Files.createDirectories(nested.getParent());
    Files.copy(jar("current"), nested);
    String classPath =
        String.join(
            File.pathSeparator,
            Path.of("target", "classes").toAbsolutePath().toString(),
            Path.of("target", "test-classes").toAbsolutePath().toString(),
            agentJar.toString());
    Map<String, String> v =
        ChildJvm.run(classPath, List.of(), JnaCoexistenceMain.class, "-", "nested");
    String out = v.get("_output");
    assertEquals("false", v.get("app.jna"), out);
    assertEquals("flodl-budget-jna", v.get("default.loader"), out);
    assertEquals(version("current"), v.get("default.version"), out);
    String nvml = v.get("nvml");
    assertTrue(nvml.contains("not found") || nvml.contains("nvmlInit_v2 failed"), out);
  }

  private static String version(String which) {
    return System.getProperty(
        which.equals("old") ? "flodl.test.jna.old.version" : "flodl.test.jna.version");
  }

  private static Path jar(String which) {
    Path dir = Path.of(System.getProperty("flodl.test.jna.dir", "target/probe-jna"));
    Path jar = dir.resolve("jna-" + version(which) + ".jar");
    assertTrue(Files.isRegularFile(jar), "missing " + jar + " (copied by maven-dependency-plugin)");
    return jar;
  }
}
