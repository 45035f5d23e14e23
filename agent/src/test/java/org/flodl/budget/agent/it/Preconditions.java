package org.flodl.budget.agent.it;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test needs of the machine (root, a cgroup controller, a tmpfs mount, a browser, a second
 * JDK): where it is missing the test is aborted with the reason (JUnit shows it skipped, never
 * passed), and under CI ({@code CI} set, as {@code .ci/run} sets it) it fails, so that a green CI
 * run ran every test.
 */
public final class Preconditions {
  private Preconditions() {}

  /** Returns whether this run is CI's: {@code CI} set and not {@code false}. */
  public static boolean ci() {
    String ci = System.getenv("CI");
    return ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
  }

  /** Aborts the test (fails it under CI) saying {@code why} it cannot run here. */
  public static void unmet(String why) {
    if (ci()) {
      Assertions.fail("CI: " + why);
    }
    System.out.println("SKIPPED: " + why);
    Assumptions.abort(why);
  }

  /** Calls {@link #unmet} with {@code why} unless {@code met}. */
  public static void require(boolean met, String why) {
    if (!met) {
      unmet(why);
    }
  }
}
