package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The isolated JNA loaders, as the agent builds one from the jar it carries. */
class JnaLoadersTest {

  @Test
  void aNestedJarBecomesAnIsolatedJna(@TempDir Path agentJarContents) throws Exception {
    Path jna =
        Path.of(System.getProperty("flodl.test.jna.dir", "target/probe-jna"))
            .resolve("jna-" + System.getProperty("flodl.test.jna.version", "5.17.0") + ".jar");
    Path nested = agentJarContents.resolve(JnaLoaders.NESTED_JAR_RESOURCE);
    Files.createDirectories(nested.getParent());
    Files.copy(jna, nested);
    try (URLClassLoader agent =
        new URLClassLoader(new URL[] {agentJarContents.toUri().toURL()}, null)) {
      ClassLoader isolated = JnaLoaders.fromNestedJar(agent, JnaLoaders.NESTED_JAR_RESOURCE);
      assertEquals(
          System.getProperty("flodl.test.jna.version", "5.17.0"), JnaLoaders.version(isolated));
      assertEquals(ClassLoader.getPlatformClassLoader(), isolated.getParent());
      assertNull(
          isolated.getResource("org/flodl/budget/probes/Jna.class"),
          "it sees nothing of the application");
      assertThrows(IOException.class, () -> JnaLoaders.fromNestedJar(agent, "META-INF/none.jar"));
    }
  }
}
