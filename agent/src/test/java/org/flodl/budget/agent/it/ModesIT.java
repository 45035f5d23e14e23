package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code observe} takes enforce's decisions (recorded as {@code WOULD_DECLINE}) and leaves the
 * application as it was; {@code off} and {@code enabled=false} weave nothing and record nothing.
 */
class ModesIT {
  // 256 KiB samples are not humongous: observe, which keeps them all, fits -Xmx64m.
  private static final String[] APP = {"--samples=150", "--sample-bytes=262144", "--evict-at-end"};

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void observeDecidesLikeEnforceAndChangesNothing(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result enforce = ChildJvm.on("modes-enforce", jdk).jvm("-Xmx64m")
        .agent("sites=" + sites).record().run("com.acme.it.CacheApp", APP);
    ChildJvm.Result observe = ChildJvm.on("modes-observe", jdk).jvm("-Xmx64m")
        .agent("sites=" + sites + ",mode=observe").record().run("com.acme.it.CacheApp", APP);
    assertEquals(0, enforce.exitCode, enforce.toString());
    assertEquals(0, observe.exitCode, observe.toString());

    assertEquals("150", observe.value("CACHED"), "observe leaves the cache unbounded: " + observe);
    assertEquals(enforce.value("CHECKSUM"), observe.value("CHECKSUM"));
    int enforceCached = Integer.parseInt(enforce.value("CACHED"));
    assertTrue(enforceCached < 150, enforce.toString());

    List<RecordedEvent> e = enforce.events("flodl.budget.CacheAdmission");
    List<RecordedEvent> o = observe.events("flodl.budget.CacheAdmission");
    assertEquals(150, o.size());
    assertTrue(o.stream().noneMatch(x -> x.getString("decision").equals("DECLINE")));
    long wouldDecline = o.stream().filter(x -> x.getString("decision").equals("WOULD_DECLINE"))
        .count();
    long declined = e.stream().filter(x -> x.getString("decision").equals("DECLINE")).count();
    assertTrue(wouldDecline > 0, "observe records what enforce would decline");
    // The same rule in both modes: admit exactly when the charge fits under the budget.
    for (RecordedEvent x : e) {
      sameRule(x);
    }
    for (RecordedEvent x : o) {
      sameRule(x);
    }
    // Both runs admit exactly when the charge fits (sameRule, above), so they take the same
    // decisions at the same budgets. The budgets themselves are not the same from run to run:
    // the heap tier's is max heap minus the live heap after the last collection, and
    // collections come at different moments (measured on this machine: enforce alone declined
    // 38 of 150 in one run and 61 in the next; observe, whose unbounded cache grows the live
    // heap, 62 and 27). So the counts of the two runs are not compared; both modes must decline
    // some and admit some.
    assertTrue(declined > 0 && declined < 150, "enforce declined " + declined);
    assertTrue(wouldDecline < 150, "observe would have declined " + wouldDecline);
    for (RecordedEvent x : o) {
      if (x.getString("decision").startsWith("ADMIT")) {
        assertTrue(x.getLong("heldBytes") <= x.getLong("budgetBytes"), x.toString());
      }
    }
  }

  private static void sameRule(RecordedEvent x) {
    long held = x.getLong("heldBytes");
    long budget = x.getLong("budgetBytes");
    if (x.getString("decision").startsWith("ADMIT")) {
      assertTrue(held <= budget, "admitted over budget: " + x);
    } else {
      assertTrue(held + x.getLong("chargedBytes") > budget, "declined what fit: " + x);
    }
  }

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void offAndDisabledWeaveNothingAndRecordNothing(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    for (String args : new String[] {"mode=off", "enabled=false"}) {
      ChildJvm.Result r = ChildJvm.on("modes-" + args.replace('=', '-'), jdk)
          .agent("sites=" + sites + ",log=debug," + args).record()
          .run("com.acme.it.CacheApp", "--samples=20", "--evict-at-end", "--mbean-wait-ms=1000");
      assertEquals(0, r.exitCode, r.toString());
      assertEquals("20", r.value("CACHED"), r.toString());
      assertEquals("none", r.value("HELD_AFTER_EVICT").split(" ")[0], "no MBean: " + r);
      assertFalse(r.stderr.contains("wove"), "nothing woven: " + r);
      assertEquals(List.of(), r.flodlEvents(), "no flodl event recorded under " + args);
    }
  }
}
