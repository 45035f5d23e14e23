package org.flodl.budget.agent.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.VirtualMachine;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.flodl.budget.agent.FlodlBudgetAgent;

/**
 * {@code attach PID [args]}: loads this jar as an agent into the running JVM {@code PID} with the
 * JDK's attach API; the agent's {@code agentmain} retransforms the site classes already loaded and
 * starts deciding without a restart. Returns 0 when the agent started, 1 when not.
 */
public final class AttachCommand {
  private AttachCommand() {}

  /** Returns the exit code of {@code attach} with {@code args}. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length < 1 || args.length > 2) {
      err.println("usage: java -jar flodl-budget-agent.jar attach PID [key=value,...]");
      return 2;
    }
    String pid = args[0].trim();
    if (!pid.matches("[0-9]+")) {
      err.println("flodl-budget: attach: '" + pid + "' is not a process id");
      return 2;
    }
    String agentArgs = args.length == 2 ? args[1] : null;
    Path jar;
    try {
      jar = agentJar();
    } catch (IllegalStateException e) {
      err.println("flodl-budget: attach: " + e.getMessage());
      return 1;
    }
    VirtualMachine vm;
    try {
      vm = VirtualMachine.attach(pid);
    } catch (Exception e) {
      err.println(
          "flodl-budget: attach: cannot attach to "
              + pid
              + " ("
              + e.getMessage()
              + "); same user, and a JVM that allows attach?");
      return 1;
    }
    try {
      String id = Long.toString(ProcessHandle.current().pid()) + "-" + System.nanoTime();
      vm.loadAgent(
          jar.toString(),
          FlodlBudgetAgent.ATTACH_ID
              + "="
              + id
              + (agentArgs == null || agentArgs.isBlank() ? "" : "," + agentArgs));
      String outcome = vm.getSystemProperties().getProperty(FlodlBudgetAgent.OUTCOME_PREFIX + id);
      if (outcome == null) {
        err.println(
            "flodl-budget: attach: the agent in "
                + pid
                + " said nothing of how it "
                + "started; see that process's stderr");
        return 1;
      }
      if (outcome.equals("started") || outcome.startsWith("off:")) {
        out.println(
            "flodl-budget: attached to "
                + pid
                + " with "
                + jar
                + (agentArgs == null ? "" : " (" + agentArgs + ")")
                + (outcome.equals("started")
                    ? ""
                    : ": " + outcome.substring("off:".length()).trim()));
        return 0;
      }
      int colon = outcome.indexOf(':');
      String what = colon < 0 ? outcome : outcome.substring(0, colon);
      String line = colon < 0 ? "" : outcome.substring(colon + 1).trim();
      err.println(
          "flodl-budget: attach: the agent in "
              + pid
              + " "
              + what
              + " the attach: "
              + line.replaceFirst("^flodl-budget: ", ""));
      return 1;
    } catch (AgentInitializationException e) {
      err.println(
          "flodl-budget: attach: the agent refused to start in "
              + pid
              + "; see that process's stderr ("
              + e.getMessage()
              + ")");
      return 1;
    } catch (Exception e) {
      err.println("flodl-budget: attach: loading the agent into " + pid + " failed (" + e + ")");
      return 1;
    } finally {
      try {
        vm.detach();
      } catch (Exception ignored) {
        // detached or gone: nothing left to do
      }
    }
  }

  /** Returns the path of the jar the agent's entry points came from. */
  static Path agentJar() {
    try {
      java.security.CodeSource cs = FlodlBudgetAgent.class.getProtectionDomain().getCodeSource();
      if (cs == null || cs.getLocation() == null) {
        throw new IllegalStateException("cannot tell which jar the agent runs from");
      }
      Path p = Path.of(cs.getLocation().toURI()).toAbsolutePath();
      if (!p.toString().endsWith(".jar") || !new File(p.toString()).isFile()) {
        throw new IllegalStateException(
            "run it as java -jar flodl-budget-agent.jar, not from " + p);
      }
      return p;
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot tell which jar the agent runs from: " + e);
    }
  }
}
