package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code observe} takes enforce's decisions (recorded as {@code WOULD_DECLINE}) and leaves the
 * application as it was; {@code off} and {@code enabled=false} weave nothing and record nothing.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class ModesIT {
  // Direct samples against a fixed host reading and 64 MiB of direct memory: the direct tier's
  // anchored budget does not depend on when the probes are read, so both modes meet the same one.
  private static final String[] APP = {
    "--samples=600", "--sample-bytes=65536", "--kind=direct", "--evict-at-end"
  };
  private static final String[] JVM = {"-XX:MaxDirectMemorySize=64m", "-Xmx128m"};
  private static final String AGENT = ",ram_probe=fixed:1G";

  @Test
  void observeDecidesLikeEnforceAndChangesNothing() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result enforce =
        ChildJvm.on("modes-enforce", jdk)
            .jvm(JVM)
            .agent("sites=" + sites + AGENT)
            .record()
            .run("com.acme.it.CacheApp", APP);
    ChildJvm.Result observe =
        ChildJvm.on("modes-observe", jdk)
            .jvm(JVM)
            .agent("sites=" + sites + AGENT + ",mode=observe")
            .record()
            .run("com.acme.it.CacheApp", APP);
    assertEquals(0, enforce.exitCode, enforce.toString());
    assertEquals(0, observe.exitCode, observe.toString());

    assertEquals("600", observe.value("CACHED"), "observe leaves the cache unbounded: " + observe);
    assertEquals(enforce.value("CHECKSUM"), observe.value("CHECKSUM"));
    int enforceCached = Integer.parseInt(enforce.value("CACHED"));
    assertTrue(enforceCached < 600, enforce.toString());

    List<RecordedEvent> e = enforce.events(CacheAdmissionEvent.NAME);
    List<RecordedEvent> o = observe.events(CacheAdmissionEvent.NAME);
    assertEquals(600, o.size());
    assertTrue(o.stream().noneMatch(x -> x.getString(DECISION).equals(Decision.DECLINE.name())));
    long wouldDecline =
        o.stream().filter(x -> x.getString(DECISION).equals(Decision.WOULD_DECLINE.name())).count();
    long declined =
        e.stream().filter(x -> x.getString(DECISION).equals(Decision.DECLINE.name())).count();
    assertTrue(wouldDecline > 0, "observe records what enforce would decline");
    // The same rule in both modes: admit exactly when the charge fits under the budget.
    for (RecordedEvent x : e) {
      sameRule(x);
    }
    for (RecordedEvent x : o) {
      sameRule(x);
    }
    // The same budget in both: the first decline at the same admission (give or take the one
    // sample a probe read at another moment sees allocated).
    int fe = firstDecline(e);
    int fo = firstDecline(o);
    assertTrue(
        fe > 0 && fo > 0 && Math.abs(fe - fo) <= 2,
        "first decline: enforce " + fe + ", observe " + fo);
    assertEquals("direct", o.get(0).getString(TIER));
    assertTrue(
        Math.abs(wouldDecline - declined) <= 600 / 10,
        "enforce declined " + declined + ", observe would have declined " + wouldDecline);
    for (RecordedEvent x : o) {
      if (x.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(x.getLong(HELD_BYTES) <= x.getLong(BUDGET_BYTES), x.toString());
      }
    }
  }

  private static int firstDecline(List<RecordedEvent> events) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).getString(DECISION).endsWith(Decision.DECLINE.name())) {
        return i;
      }
    }
    return -1;
  }

  private static void sameRule(RecordedEvent x) {
    long held = x.getLong(HELD_BYTES);
    long budget = x.getLong(BUDGET_BYTES);
    if (x.getString(DECISION).startsWith(Decision.ADMIT.name())) {
      assertTrue(held <= budget, "admitted over budget: " + x);
    } else {
      assertTrue(held + x.getLong(CHARGED_BYTES) > budget, "declined what fit: " + x);
    }
  }

  @Test
  void offAndDisabledWeaveNothingAndRecordNothing() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    // No wait for an MBean that must be absent: premain installs nothing under mode=off, and a
    // weave would show in stderr ("wove") and in the recording (Instrumented), asserted below.
    for (String args : new String[] {"mode=off", "enabled=false"}) {
      ChildJvm.Result r =
          ChildJvm.on("modes-" + args.replace('=', '-'), jdk)
              .agent("sites=" + sites + ",log=debug," + args)
              .record()
              .run("com.acme.it.CacheApp", "--samples=20", "--evict-at-end", "--mbean-wait-ms=0");
      assertEquals(0, r.exitCode, r.toString());
      assertEquals("20", r.value("CACHED"), r.toString());
      assertEquals("none", r.value("HELD_AFTER_EVICT").split(" ")[0], "no MBean: " + r);
      assertFalse(r.stderr.contains("wove"), "nothing woven: " + r);
      assertEquals(List.of(), r.flodlEvents(), "no flodl event recorded under " + args);
    }
  }
}
