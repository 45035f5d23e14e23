package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One jar, every class under the agent's own package: an application with its own ByteBuddy (and
 * the ASM inside it) runs unchanged next to the agent's relocated ASM, and the jar carries no ASM,
 * ByteBuddy or JNA class that could shadow the application's from the boot class path.
 */
class PackagingIT {

  @Test
  void everyClassInTheJarIsUnderTheAgentsPackage() throws Exception {
    List<String> foreign = new ArrayList<>();
    try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
      assertEquals("flodl-budget-agent.jar",
          jar.getManifest().getMainAttributes().getValue("Boot-Class-Path"));
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        String name = entries.nextElement().getName();
        if (name.endsWith(".class") && !name.startsWith("org/flodl/budget/")) {
          foreign.add(name);
        }
      }
    }
    assertEquals(List.of(), foreign, "classes outside org.flodl.budget");
  }

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void anApplicationWithItsOwnByteBuddyRunsUnchanged(Jdk jdk) throws Exception {
    String byteBuddy = null;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      if (entry.contains("byte-buddy")) {
        byteBuddy = entry;
      }
    }
    assertTrue(byteBuddy != null, "the test class path has the application's ByteBuddy");
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r = ChildJvm.on("own-bytebuddy", jdk).jvm("-Xmx256m")
        .agent("sites=" + sites + ",log=info")
        .classPath(ChildJvm.APP_CLASSES, Path.of(byteBuddy))
        .run("com.acme.it.OwnByteBuddyApp");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("generated", r.value("TOSTRING"));
    assertEquals("app", r.value("LOADER"), "the application's ByteBuddy is its own");
    assertTrue(Integer.parseInt(r.value("CACHED")) < 300, "and the agent still bounds the cache");
    assertTrue(r.stderr.contains("wove site 'samples' into com.acme.it.SampleStore: cache "
        + "admission at put(Object, Object)"), r.toString());
  }

  /**
   * The jar carries the JNA the GPU probes use, nested and unrelocated, and the probes load it in
   * a loader of their own: an application with no JNA gets a working one for the probes, and
   * still sees none itself.
   */
  @ParameterizedTest
  @EnumSource(Jdk.class)
  void theProbesUseTheJnaTheJarCarriesAndTheApplicationSeesNone(Jdk jdk) throws Exception {
    try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
      assertTrue(jar.getEntry("META-INF/flodl-budget/jna.jar") != null, "the nested JNA jar");
    }
    ChildJvm.Result r = ChildJvm.on("agent-jna", jdk).agent("mode=off")
        .run("com.acme.it.AgentJnaApp");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("flodl-budget-jna", r.value("PROBE_JNA_LOADER"), r.toString());
    assertEquals("5.17.0", r.value("PROBE_JNA_VERSION"), r.toString());
    assertEquals("false", r.value("APP_SEES_JNA"), "nothing of JNA leaks to the application");
  }
}
