package org.flodl.budget.agent.gate;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Virtual threads for the tests that run on the JDK 21+ they are compiled for 17 against. */
final class VirtualThreads {
  private VirtualThreads() {}

  /**
   * Returns an executor that starts a virtual thread per task where the JVM has them (JDK 21+),
   * else a pool of four platform threads.
   */
  static ExecutorService perTaskOrPool() {
    try {
      return (ExecutorService)
          Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (ReflectiveOperationException e) {
      return Executors.newFixedThreadPool(4);
    }
  }
}
