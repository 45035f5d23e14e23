package org.flodl.budget.agent.gate;

import java.util.Queue;

/** The failures of a test's worker threads, collected so that they fail the test itself. */
final class WorkerFailures {
  private WorkerFailures() {}

  /**
   * Fails the test with the workers' failures, if any: the first one thrown, the others added to it
   * as suppressed, each saying which thread it came from.
   */
  static void rethrow(Queue<AssertionError> failures) {
    AssertionError first = failures.poll();
    if (first != null) {
      for (AssertionError next; (next = failures.poll()) != null; ) {
        first.addSuppressed(next);
      }
      throw first;
    }
  }
}
