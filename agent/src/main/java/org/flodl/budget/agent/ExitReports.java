package org.flodl.budget.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.weave.Rule;
import org.flodl.budget.agent.weave.SiteTransformer;

/** What the agent says and records as the JVM exits. */
final class ExitReports {
  private ExitReports() {}

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
