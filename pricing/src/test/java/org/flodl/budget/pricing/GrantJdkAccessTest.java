package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import org.flodl.budget.testing.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path the agent takes: a JVM started with nothing exported, a {@code -javaagent} whose
 * Instrumentation is handed to {@link RetentionPricer#standard}, which grants itself {@code
 * sun.nio.ch} and {@code java.nio} with {@code redefineModule}: direct views are then priced by
 * their owner, read-only heap views by their array, mappings on their own tier, other objects by
 * {@code getObjectSize}, and nothing is reported.
 */
class GrantJdkAccessTest {

  @Test
  void theStandardPricerGrantsItselfTheJdkAccessThroughInstrumentation(@TempDir Path dir)
      throws Exception {
    Path agent = dir.resolve("grant-agent.jar");
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest
        .getMainAttributes()
        .put(new Attributes.Name("Premain-Class"), GrantAgentMain.class.getName());
    try (OutputStream out = Files.newOutputStream(agent)) {
      // a manifest alone: the agent class itself comes from the class path
      new JarOutputStream(out, manifest).close();
    }
    ChildProcess.Output r = ChildJvm.run(GrantAgentMain.class, "-javaagent:" + agent);
    assertEquals(0, r.exitCode(), r.stderr());
    Map<String, String> seen =
        Arrays.stream(r.stdout().split("\\R"))
            .filter(l -> l.contains("="))
            .collect(
                Collectors.toMap(
                    l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1)));
    assertEquals("false", seen.get("exported.before"), "the child starts with nothing exported");
    assertEquals("null", seen.get("limitation"), r.stdout());
    assertEquals("null", seen.get("shallowLimitation"));
    assertEquals((1 << 20) + ",4096,true", seen.get("direct"));
    assertEquals((1 << 16) + ",64,true", seen.get("readonly"));
    assertEquals("mapped,64,false", seen.get("mapped"));
    String[] shallow = seen.get("shallow").split(",");
    assertEquals(shallow[1], shallow[0], "priced by getObjectSize");
    assertTrue(r.stderr().lines().noneMatch(l -> l.startsWith("flodl-budget:")), r.stderr());
  }
}
