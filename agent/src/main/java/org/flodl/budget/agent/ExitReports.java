package org.flodl.budget.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.Log;
import org.flodl.budget.agent.record.BudgetRecording;
import org.flodl.budget.agent.weave.Rule;
import org.flodl.budget.agent.weave.SiteTransformer;

/** What the agent says and records as the JVM exits. */
final class ExitReports {
  private ExitReports() {}

  /**
   * At exit, the site summaries of the last period (they would be lost between the last periodic
   * emission and the exit), once, from the first of the agent's exit hooks to run. JFR writes its
   * recordings from a hook of its own, which runs beside these: the summaries are in the file when
   * they come first, which they do unless JFR's hook is scheduled ahead (best effort).
   */
  static void finalSummaries(GateEngine engine) {
    java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable once = new Runnable() {
      @Override
      public void run() {
        if (done.compareAndSet(false, true)) {
          engine.emitFinalSummaries();
        }
      }
    };
    BudgetRecording.beforeFinalWrite(once);
    Runtime.getRuntime().addShutdownHook(new Thread(once, "flodl-budget-exit-summaries"));
  }

  /** At exit, one line per rule of the sites file that never wove anything. */
  static void unwovenSites(List<Rule> rules, SiteTransformer transformer) {
    List<Rule> own = new ArrayList<>();
    for (Rule r : rules) {
      if (!r.preset()) {
        own.add(r);
      }
    }
    if (own.isEmpty()) {
      return;
    }
    Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
      @Override
      public void run() {
        Set<Integer> woven = transformer.wovenRules();
        for (Rule r : own) {
          if (!woven.contains(r.id())) {
            Log.warn("site '" + r.site() + "': its " + r.role().label() + " at " + r.method()
                + (r.scope() == null ? "" : " (calls in " + r.scope() + ")")
                + " was never woven: no class it names loaded, or none declared it");
          }
        }
      }
    }, "flodl-budget-exit-report"));
  }

}
