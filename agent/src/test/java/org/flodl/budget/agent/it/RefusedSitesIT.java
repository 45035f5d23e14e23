package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.api.Test;

/**
 * Sites that would weave the JDK or the agent itself (the only way a user could reach a HashMap
 * field before call sites, which crashed or deadlocked the JVM) are refused, each with one line
 * that names the call-site form, and the application's output is byte for byte what it is without
 * the agent, in 10 runs of 10.
 */
class RefusedSitesIT {
  static final String SITES =
      """
      site.map.kind   = cache-admit
      site.map.method = java.util.HashMap#put(java.lang.Object,java.lang.Object)
      site.map.value  = 1

      site.string.kind   = prefetch-depth
      site.string.method = java.lang.String#<init>(char[],int,int)
      site.string.depth  = 1

      site.gate.kind   = cache-admit
      site.gate.method = org.flodl.budget.agent.gate.Gate#admit(int,java.lang.Object,java.lang.Object)
      site.gate.value  = 2
      """;

  @Test
  void jdkAndAgentSitesAreRefusedAndTheAppRunsAsWritten() throws Exception {
    ChildJvm.Result bare = ChildJvm.on("refused-bare", Jdk.JDK17).run("com.acme.it.WordCount");
    assertEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stdout.lines().count() > 10, bare.toString());
    Path sites = Sites.write("refused", SITES);
    for (int run = 0; run < 10; run++) {
      ChildJvm.Result r =
          ChildJvm.on("refused-" + run, Jdk.JDK17)
              .agent("sites=" + sites)
              .run("com.acme.it.WordCount");
      assertEquals(0, r.exitCode, r.toString());
      assertEquals(bare.stdout, r.stdout, "run " + run + ": the output as without the agent");
      List<String> lines = r.stderr.lines().filter(l -> l.startsWith("flodl-budget:")).toList();
      assertEquals(3, lines.size(), "one line per refused site: " + r.stderr);
      assertTrue(
          lines
              .get(0)
              .contains(
                  "site 'map' disabled: method 'java.util.HashMap#put("
                      + "java.lang.Object,java.lang.Object)' is a JDK method, whose bodies are never woven: "
                      + "budget its calls with in = the code that makes them"),
          lines.get(0));
      assertTrue(
          lines
              .get(1)
              .contains(
                  "site 'string' disabled: method 'java.lang.String#<init>("
                      + "char[],int,int)' is a JDK method"),
          lines.get(1));
      assertTrue(
          lines
              .get(2)
              .contains(
                  "site 'gate' disabled: method 'org.flodl.budget.agent."
                      + "gate.Gate#admit(int,java.lang.Object,java.lang.Object)' is in the agent itself"),
          lines.get(2));
      assertTrue(
          r.stderr.lines().allMatch(l -> l.startsWith("flodl-budget:")),
          "nothing else on stderr: " + r.stderr);
    }
  }
}
