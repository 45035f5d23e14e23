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

  /** Where the jar keeps its command line's classes, off its class path. */
  static final String CLI = "META-INF/flodl-budget/cli/";

  /** The command line's packages: report, suggest, attach, and the findings the report draws. */
  static final List<String> COMMAND_LINE =
      List.of(
          "org/flodl/budget/agent/report/",
          "org/flodl/budget/agent/suggest/",
          "org/flodl/budget/agent/cli/",
          "org/flodl/budget/findings/");

  @Test
  void theCommandLineIsOffTheClassPathThatWovenCodeSees() throws Exception {
    List<String> onClassPath = new ArrayList<>();
    List<String> apart = new ArrayList<>();
    int boot = 0;
    try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        String name = entries.nextElement().getName();
        if (!name.endsWith(".class")) {
          continue;
        }
        for (String p : COMMAND_LINE) {
          if (name.startsWith(p)) {
            onClassPath.add(name);
          } else if (name.startsWith(CLI + p) && !apart.contains(p)) {
            apart.add(p);
          }
        }
        boot += name.startsWith("META-INF/") ? 0 : 1;
      }
    }
    assertEquals(List.of(), onClassPath, "command-line classes on the jar's class path");
    assertEquals(COMMAND_LINE.size(), apart.size(), "each command-line package apart: " + apart);
    System.out.println("the jar's boot-visible classes: " + boot);

    // An application class (as a woven one would) sees the gate and none of the command line.
    ChildJvm.Result r =
        ChildJvm.on("classes-seen", Jdk.JDK17)
            .agent("sites=" + Sites.write("store", Sites.STORE))
            .run(
                "com.acme.it.ClassesSeen",
                "org.flodl.budget.agent.gate.Gate",
                "org.flodl.budget.agent.report.ReportCommand",
                "org.flodl.budget.agent.suggest.SuggestCommand",
                "org.flodl.budget.agent.cli.AttachCommand",
                "org.flodl.budget.findings.Findings");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("yes", r.value("org.flodl.budget.agent.gate.Gate"), r.toString());
    for (String hidden :
        List.of(
            "agent.report.ReportCommand",
            "agent.suggest.SuggestCommand",
            "agent.cli.AttachCommand",
            "findings.Findings")) {
      assertEquals("no", r.value("org.flodl.budget." + hidden), r.toString());
    }
  }

  @Test
  void everyClassInTheJarIsUnderTheAgentsPackage() throws Exception {
    List<String> foreign = new ArrayList<>();
    try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
      assertEquals(
          "flodl-budget-agent.jar",
          jar.getManifest().getMainAttributes().getValue("Boot-Class-Path"));
      Enumeration<JarEntry> entries = jar.entries();
      while (entries.hasMoreElements()) {
        String name = entries.nextElement().getName();
        if (name.startsWith(CLI)) {
          name = name.substring(CLI.length());
        }
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
    ChildJvm.Result r =
        ChildJvm.on("own-bytebuddy", jdk)
            .jvm("-Xmx256m")
            .agent("sites=" + sites + ",log=info")
            .classPath(ChildJvm.APP_CLASSES, Path.of(byteBuddy))
            .run("com.acme.it.OwnByteBuddyApp");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("generated", r.value("TOSTRING"));
    assertEquals("app", r.value("LOADER"), "the application's ByteBuddy is its own");
    assertTrue(Integer.parseInt(r.value("CACHED")) < 300, "and the agent still bounds the cache");
    assertTrue(
        r.stderr.contains(
            "wove site 'samples' into com.acme.it.SampleStore: cache "
                + "admission at put(Object, Object)"),
        r.toString());
  }

  /**
   * The jar carries the JNA the GPU probes use, nested and unrelocated, and the probes load it in a
   * loader of their own: an application with no JNA gets a working one for the probes, and still
   * sees none itself.
   */
  @ParameterizedTest
  @EnumSource(Jdk.class)
  void theProbesUseTheJnaTheJarCarriesAndTheApplicationSeesNone(Jdk jdk) throws Exception {
    try (JarFile jar = new JarFile(ChildJvm.AGENT_JAR.toFile())) {
      assertTrue(jar.getEntry("META-INF/flodl-budget/jna.jar") != null, "the nested JNA jar");
    }
    ChildJvm.Result r =
        ChildJvm.on("agent-jna", jdk).agent("mode=off").run("com.acme.it.AgentJnaApp");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("flodl-budget-jna", r.value("PROBE_JNA_LOADER"), r.toString());
    assertEquals("5.17.0", r.value("PROBE_JNA_VERSION"), r.toString());
    assertEquals("false", r.value("APP_SEES_JNA"), "nothing of JNA leaks to the application");
  }
}
