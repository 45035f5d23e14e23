package org.flodl.budget.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points: {@code premain} for {@code -javaagent:flodl-budget-agent.jar=…},
 * {@code agentmain} for {@code attach PID}. Each hands its arguments to {@link Bootstrap} and
 * returns; nothing the agent meets reaches the JVM, except the one failed start {@code
 * strict=true} asks for.
 */
public final class FlodlBudgetAgent {
  private FlodlBudgetAgent() {}

  /** Starts the agent before the application's main method. */
  public static void premain(String agentArgs, Instrumentation inst) {
    Bootstrap.start(agentArgs, inst, false);
  }

  /** Starts the agent in a running JVM; classes already loaded are retransformed. */
  public static void agentmain(String agentArgs, Instrumentation inst) {
    Bootstrap.start(agentArgs, inst, true);
  }
}
