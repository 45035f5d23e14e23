package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.VALUE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent fails open: a bad argument, a missing sites file, a site naming a class that does not
 * exist, a bad sites entry and a pricer that throws each leave the application running with one
 * clear line on stderr; {@code strict=true} turns the first two into a failed start. And code the
 * agent runs never re-enters it.
 */
class FailOpenIT {
  private static final String APP = "com.acme.it.CacheApp";

  private static void ranOn(ChildJvm.Result r) {
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
  }

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void aBadArgumentTurnsTheAgentOffAndStrictStopsTheStart(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result typo =
        ChildJvm.on("bad-key", jdk)
            .agent("sites=" + sites + ",ram_max_usag=0.5")
            .record()
            .run(APP, "--samples=20");
    ranOn(typo);
    assertEquals("20", typo.value("CACHED"), "agent off: the cache as written");
    assertTrue(
        typo.stderr.contains("flodl-budget: ") && typo.stderr.contains("'ram_max_usag'"),
        typo.toString());
    assertEquals(
        1,
        typo.stderr.lines().filter(l -> l.startsWith("flodl-budget:")).count(),
        "one line: " + typo.stderr);
    assertEquals(0, typo.flodlEvents().size());

    ChildJvm.Result value =
        ChildJvm.on("bad-value", jdk).agent("ram_max_usage=2.5").run(APP, "--samples=5");
    ranOn(value);
    assertTrue(value.stderr.contains("ram_max_usage"), value.toString());

    ChildJvm.Result strict =
        ChildJvm.on("bad-key-strict", jdk)
            .agent("sites=" + sites + ",ram_max_usag=0.5,strict=true")
            .run(APP, "--samples=5");
    assertNotEquals(0, strict.exitCode, strict.toString());
    assertFalse(strict.stdout.contains("DONE"), "main never ran: " + strict);
    assertTrue(
        strict.stderr.contains("'ram_max_usag'") && strict.stderr.contains("strict=true"),
        strict.toString());
  }

  @Test
  void aMissingSitesFileIsOneLineAndStrictStopsTheStart() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    String missing = ChildJvm.WORK.resolve("no-such-sites.properties").toAbsolutePath().toString();
    ChildJvm.Result r =
        ChildJvm.on("no-sites", jdk).agent("sites=" + missing).run(APP, "--samples=5");
    ranOn(r);
    assertTrue(
        r.stderr.contains("flodl-budget:") && r.stderr.contains("no-such-sites"), r.toString());
    ChildJvm.Result strict =
        ChildJvm.on("no-sites-strict", jdk)
            .agent("sites=" + missing + ",strict=true")
            .run(APP, "--samples=5");
    assertNotEquals(0, strict.exitCode, strict.toString());
    assertFalse(strict.stdout.contains("DONE"), strict.toString());
    assertTrue(strict.stderr.contains("no-such-sites"), strict.toString());
  }

  @Test
  void aMissingClassOrABadEntryDisablesThatSiteOnly() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites =
        Sites.write(
            "mixed",
            Sites.STORE
                + "site.ghost.kind = cache-admit\n"
                + "site.ghost.method = com.acme.it.NoSuchCache#put(java.lang.Object,java.lang.Object)\n"
                + "site.ghost.value = 1\n"
                + "site.broken.kind = cache-evict\n"
                + "site.broken.method = com.acme.it.SampleStore#get\n"
                + "site.wrong.kind = cache-admit\n"
                + "site.wrong.method = com.acme.it.SampleStore#evict\n"
                + "site.wrong.value = 3\n");
    ChildJvm.Result r =
        ChildJvm.on("mixed-sites", jdk)
            .jvm("-Xmx256m")
            .agent("sites=" + sites)
            .record()
            .run(APP, "--samples=300");
    ranOn(r);
    assertTrue(r.stderr.contains("com.acme.it.NoSuchCache"), r.toString());
    assertTrue(r.stderr.contains("broken"), r.toString());
    assertTrue(r.stderr.contains("argument index 3 is out of range"), r.toString());
    assertTrue(Integer.parseInt(r.value("CACHED")) < 300, "the good site still bounds the cache");
    assertTrue(
        r.events(InstrumentedEvent.NAME).stream()
            .anyMatch(
                e -> e.getString(SITE).equals("wrong") && e.getString(OUTCOME).equals("FAILED")),
        "the failed weave is recorded");
  }

  @Test
  void aPricerThatThrowsLetsTheCallRunAndSaysSoOnce() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("poison", jdk)
            .agent("sites=" + sites)
            .record()
            .run(APP, "--samples=30", "--sample-bytes=1024", "--kind=poison");
    ranOn(r);
    assertEquals("30", r.value("CACHED"), "the calls ran as written: " + r);
    assertEquals(
        1,
        r.stderr.lines().filter(l -> l.contains("poison pricer refuses")).count(),
        "said once: " + r.stderr);
    // The pricer falls back to the value's shallow size: the decisions go on, priced.
    assertEquals(30, r.events(CacheAdmissionEvent.NAME).size());
  }

  /**
   * Code the agent runs never re-enters it: the application's own pricer (found by ServiceLoader)
   * puts a copy of each value it prices into another cache, a site of its own, while the agent
   * prices the value. Those puts pass straight through, stored and not decided: the other site
   * decides nothing. Were they decided, each would be a decision of the other site inside the
   * sample's own.
   */
  @Test
  void aPricerThatPutsIntoTheCacheItPricesIsNotDecidedAgain() throws Exception {
    Path sites =
        Sites.write(
            "echo",
            Sites.STORE
                + "site.side.kind = cache-admit\n"
                + "site.side.method = com.acme.it.Echo$Side#put(java.lang.Object,java.lang.Object)\n"
                + "site.side.value = 1\n");
    ChildJvm.Result r =
        ChildJvm.on("echo", Jdk.JDK17)
            .agent("sites=" + sites)
            .record()
            .run(APP, "--samples=30", "--sample-bytes=1024", "--kind=echo");
    ranOn(r);
    assertEquals("30", r.value("CACHED"), r.toString());
    assertEquals("30", r.value("SIDE"), "the pricer's puts ran as written: " + r);
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(30, decisions.size(), "one decision a sample: " + decisions);
    for (RecordedEvent e : decisions) {
      assertEquals("samples", e.getString(SITE), e.toString());
      assertEquals("com.acme.it.Echo", e.getString(VALUE_TYPE), e.toString());
    }
    assertFalse(r.stderr.contains("flodl-budget"), "nothing to say: " + r.stderr);
  }
}
