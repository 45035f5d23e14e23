package org.flodl.budget.agent.scenario;

import static org.flodl.budget.events.EventFields.DECISION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm;
import org.flodl.budget.agent.it.LoaderEpoch;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.junit.jupiter.api.Test;

/**
 * Scenario 4, overhead: the same job without the agent and with it in {@code mode=off}, {@code
 * observe} and {@code enforce}, on a budget that never binds (8 MiB of samples, a 512 MiB heap).
 * What each run trains on and caches must be the same: {@code off} installs nothing and decides
 * nothing, {@code observe} and {@code enforce} decide every put and admit all of it. The epoch
 * times are compared by benchmarks/scenarios.sh, not here.
 */
class OverheadScenarioIT {
  static final List<String> APP =
      List.of(
          "--sample-bytes=16K",
          "--samples=512",
          "--epochs=2",
          "--batch-size=16",
          "--depth=4",
          "--compute-iters=2000");

  @Test
  void aBudgetThatNeverBindsChangesNothingTheJobSees() throws Exception {
    ChildJvm.Result bare =
        LoaderApp.child("overhead-bare", "-Xmx512m").run(LoaderApp.MAIN, LoaderApp.args(APP));
    assertEquals(0, bare.exitCode, bare.toString());
    assertEquals(512, LoaderApp.epoch(bare, 2).get("cacheHits"));
    String sites = "sites=" + LoaderApp.sites("sites.properties");

    for (String mode : List.of("off", "observe", "enforce")) {
      ChildJvm.Result r =
          LoaderApp.child("overhead-" + mode, "-Xmx512m")
              .agent(sites + ",mode=" + mode)
              .record()
              .run(LoaderApp.MAIN, LoaderApp.args(APP));
      assertEquals(0, r.exitCode, r.toString());
      assertEquals("true", r.value("exactly_once"), r.toString());
      assertEquals(bare.value("checksum"), r.value("checksum"), mode + ": same samples");
      assertEquals(bare.value("model"), r.value("model"), mode + ": same training result");
      LoaderEpoch e2 = LoaderApp.epoch(r, 2);
      assertEquals(512, e2.get("cacheHits"), mode + ": everything cached, as without the agent");
      assertEquals(4, e2.get("depth"), mode + ": the requested depth is kept");

      List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
      if (mode.equals("off")) {
        assertEquals(
            List.of(),
            r.flodlEvents().stream()
                .filter(e -> e.getEventType().getName().startsWith("flodl.budget."))
                .map(e -> e.getEventType().getName())
                .distinct()
                .toList(),
            "mode=off decides nothing");
        assertTrue(r.events(InstrumentedEvent.NAME).isEmpty(), "mode=off weaves nothing");
      } else {
        assertEquals(512, admissions.size(), mode + ": one decision per put");
        for (RecordedEvent e : admissions) {
          assertEquals(Decision.ADMIT.name(), e.getString(DECISION), mode + ": " + e);
        }
      }
    }
  }
}
