package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flodl.budget.testing.ChildProcess;
import org.junit.jupiter.api.Test;

/**
 * What the pricer does in a JVM the way it starts, with nothing of java.base exported to it (a
 * child JVM without the surefire flags): a direct view is charged the capacity it shows, never
 * materialized, {@code limitation()} says why, and the standard pricer says so exactly once on
 * stderr however many views it prices, from however many threads. And with the access, in a JVM
 * whose direct memory is exhausted: a copy that fails declines the admission.
 */
class NoJdkAccessTest {

  private static Map<String, String> lines(String stdout) {
    return Arrays.stream(stdout.split("\\R"))
        .filter(l -> l.contains("="))
        .collect(
            Collectors.toMap(
                l -> l.substring(0, l.indexOf('=')), l -> l.substring(l.indexOf('=') + 1)));
  }

  @Test
  void withoutTheExportDirectViewsAreChargedWhatTheyShowAndThePricerSaysSoOnce() throws Exception {
    ChildProcess.Output r = ChildJvm.run(NoJdkAccessMain.class);
    assertEquals(0, r.exitCode(), r.stderr());
    Map<String, String> seen = lines(r.stdout());
    assertTrue(
        seen.get("limitation").contains("does not export sun.nio.ch"), seen.get("limitation"));
    for (int i = 0; i < 3; i++) {
      assertEquals("direct,4096,4096,4096,false,true,true", seen.get("direct." + i), r.stdout());
    }
    // A read-only heap buffer hides its array without java.nio open: its capacity is charged.
    assertEquals("64,64,false", seen.get("readonly"));
    // A writable heap buffer shows its array: still priced by its whole storage.
    assertEquals("65536,64,true", seen.get("heap"));
    List<String> notices =
        Arrays.stream(r.stderr().split("\\R"))
            .filter(l -> l.startsWith("flodl-budget:"))
            .collect(Collectors.toList());
    assertEquals(1, notices.size(), r.stderr());
    assertTrue(notices.get(0).contains("sun.nio.ch"), notices.get(0));
  }

  @Test
  void aCopyThatCannotBeHadDeclinesTheAdmission() throws Exception {
    ChildProcess.Output r =
        ChildJvm.run(
            DirectExhaustedMain.class,
            "-XX:MaxDirectMemorySize=1m",
            "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens=java.base/java.nio=ALL-UNNAMED");
    assertEquals(0, r.exitCode(), r.stderr());
    Map<String, String> seen = lines(r.stdout());
    assertEquals((300 << 10) + ",true", seen.get("estimate"), r.stdout());
    assertTrue(seen.containsKey("declined"), r.stdout());
    assertTrue(seen.get("declined").contains("could not materialize"), seen.get("declined"));
    assertEquals("declined", seen.get("rows"));
    assertEquals(String.valueOf(768 << 10), seen.get("kept"));
    assertTrue(r.stderr().isBlank(), "with the access there is nothing to say: " + r.stderr());
  }
}
