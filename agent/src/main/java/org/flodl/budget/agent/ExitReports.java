package org.flodl.budget.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.weave.Rule;
import org.flodl.budget.agent.weave.SiteTransformer;

/** What the agent says and records as the JVM exits. */
final class ExitReports {
  private ExitReports() {}

  /**
   * Leaves to the JVM's exit: a line for each rule of the sites file that never wove; where no
   * argument chose what to budget, what a budget would have done ({@link ObservedAdvice}).
   */
  static void install(
      AgentConfig config,
      List<SiteSpec> specs,
      List<Rule> rules,
      SiteTransformer transformer,
      GateEngine engine) {
    unwovenSites(rules, transformer);
    if (config.observesAll()) {
      ObservedAdvice.install(engine, config, specs);
    }
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
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                new Runnable() {
                  @Override
                  public void run() {
                    Set<Integer> woven = transformer.wovenRules();
                    for (Rule r : own) {
                      if (!woven.contains(r.id())) {
                        Log.warn(
                            "site '"
                                + r.site()
                                + "': its "
                                + r.role().label()
                                + " at "
                                + r.method()
                                + (r.scope() == null ? "" : " (calls in " + r.scope() + ")")
                                + " was never woven: no class it names loaded, or none declared it");
                      }
                    }
                  }
                },
                "flodl-budget-exit-report"));
  }
}
