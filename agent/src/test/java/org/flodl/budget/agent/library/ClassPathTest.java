package org.flodl.budget.agent.library;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the class path cannot hold a library support's services file, the registry reads the boot
 * class path alone; whatever might hold one (a jar, a directory with the file) keeps the scan.
 */
class ClassPathTest {
  @TempDir Path dir;

  private static String path(Path... entries) {
    StringBuilder b = new StringBuilder();
    for (Path p : entries) {
      b.append(b.length() == 0 ? "" : File.pathSeparator).append(p);
    }
    return b.toString();
  }

  @Test
  void directoriesWithoutTheFileAndTheAgentsOwnJarHoldNone() throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path agentJar = Files.write(dir.resolve("flodl-budget-agent.jar"), new byte[] {1});
    Path gone = dir.resolve("not-there");
    assertFalse(
        ClassPath.mayProvide(
            Registry.SERVICES, path(classes, agentJar, gone), agentJar.toString()));
  }

  @Test
  void aDirectoryWithTheFileOrAnyOtherJarMayHoldOne() throws Exception {
    Path classes = Files.createDirectories(dir.resolve("classes"));
    Path agentJar = Files.write(dir.resolve("flodl-budget-agent.jar"), new byte[] {1});
    Path lib = Files.write(dir.resolve("lib.jar"), new byte[] {1});
    assertTrue(ClassPath.mayProvide(Registry.SERVICES, path(classes, lib), agentJar.toString()));
    assertTrue(
        ClassPath.mayProvide(Registry.SERVICES, path(classes, agentJar), null),
        "the agent's jar, not on the boot class path, is scanned");
    Path supports = Files.createDirectories(dir.resolve("supports"));
    Path file = supports.resolve(Registry.SERVICES);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "com.acme.LruSupport\n");
    assertTrue(
        ClassPath.mayProvide(Registry.SERVICES, path(classes, supports), agentJar.toString()));
  }
}
