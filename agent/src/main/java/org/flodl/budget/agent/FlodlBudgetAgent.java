package org.flodl.budget.agent;

import java.lang.instrument.Instrumentation;

/**
 * The agent's entry points: {@code premain} for {@code -javaagent:flodl-budget-agent.jar=…}, {@code
 * agentmain} for {@code attach PID}. Each hands its arguments to {@link Bootstrap} and returns;
 * nothing the agent meets reaches the JVM, except the one failed start {@code strict=true} asks
 * for.
 */
public final class FlodlBudgetAgent {
  /** The argument the attach command passes first, naming where the outcome is left. */
  public static final String ATTACH_ID = "attach-id";

  /** The prefix of the system property the outcome of an attach is left in. */
  public static final String OUTCOME_PREFIX = "flodl.budget.attach.";

  private FlodlBudgetAgent() {}

  /** Starts the agent before the application's main method. */
  public static void premain(String agentArgs, Instrumentation inst) {
    try {
      Bootstrap.start(agentArgs, inst, false, null);
    } catch (Throwable t) {
      // start() says why in one line; nothing of the agent stops the JVM's start
    }
  }

  /**
   * Starts the agent in a running JVM; classes already loaded are retransformed. The {@code attach}
   * command puts {@code attach-id=ID} first in the arguments: the outcome is then left in the
   * system property {@code flodl.budget.attach.ID}, for the command to read back.
   */
  public static void agentmain(String agentArgs, Instrumentation inst) {
    try {
      String args = agentArgs;
      String id = null;
      if (args != null && args.startsWith(ATTACH_ID + "=")) {
        int comma = args.indexOf(',');
        id = args.substring(ATTACH_ID.length() + 1, comma < 0 ? args.length() : comma);
        args = comma < 0 ? null : args.substring(comma + 1);
      }
      Bootstrap.attach(args, inst, id);
    } catch (Throwable t) {
      // nothing reaches the JVM's attach machinery (it prints stack traces); the command says why
    }
  }
}
