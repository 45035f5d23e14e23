package com.acme.it;

/**
 * An epoch loop for the prefetch-depth tests: each epoch makes a {@link Feeder} with the requested
 * depth (the constructor is the site), draws its batches (the batch site) and prints the depth the
 * feeder actually got and the depth {@link Feeder#preferredDepth} returned. Options: epochs, depth,
 * batch-bytes, batches, direct, and {@code --settle-heap=BYTES}: between epochs the last epoch's
 * feeder is let go and collected, and the next epoch starts once the agent's heap tier has a budget
 * of at least BYTES (its MBean, {@code org.flodl.budget:type=Tier,name=heap}), that is once its
 * probe has read the heap after the collection (at most 60 s; then it starts all the same).
 */
public final class DepthApp {
  public static void main(String[] args) {
    int epochs = 3;
    int depth = 8;
    int batchBytes = 64 * 1024;
    int batches = 5;
    boolean direct = false;
    long settleHeap = -1;
    for (String a : args) {
      String[] kv = a.substring(2).split("=", 2);
      switch (kv[0]) {
        case "epochs":
          epochs = Integer.parseInt(kv[1]);
          break;
        case "depth":
          depth = Integer.parseInt(kv[1]);
          break;
        case "batch-bytes":
          batchBytes = Integer.parseInt(kv[1]);
          break;
        case "batches":
          batches = Integer.parseInt(kv[1]);
          break;
        case "direct":
          direct = Boolean.parseBoolean(kv[1]);
          break;
        case "settle-heap":
          settleHeap = Long.parseLong(kv[1]);
          break;
        default:
          throw new IllegalArgumentException(a);
      }
    }
    long seen = 0;
    for (int e = 0; e < epochs; e++) {
      if (e > 0 && settleHeap >= 0) {
        settle(settleHeap);
      }
      Feeder f = new Feeder("epoch-" + e, depth, batchBytes, direct);
      for (int b = 0; b < batches; b++) {
        seen += f.next().size();
      }
      System.out.println(
          "EPOCH" + e + "=" + f.depth() + " PREFERRED" + e + "=" + f.preferredDepth());
    }
    System.out.println("SAMPLES=" + seen);
    System.out.println("DONE");
  }

  /**
   * Collects, then waits until the agent's heap budget is at least {@code bytes} (at most 60 s).
   */
  private static void settle(long bytes) {
    System.gc();
    javax.management.MBeanServer server =
        java.lang.management.ManagementFactory.getPlatformMBeanServer();
    long deadline = System.nanoTime() + 60_000_000_000L;
    long budget = -1;
    while (System.nanoTime() < deadline) {
      try {
        budget =
            (Long)
                server.getAttribute(
                    new javax.management.ObjectName("org.flodl.budget:type=Tier,name=heap"),
                    "BudgetBytes");
        if (budget >= bytes) {
          break;
        }
      } catch (javax.management.JMException | RuntimeException notYet) {
        // the agent registers its MBeans after its first probe
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException ie) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    System.out.println("SETTLED heap budget=" + budget);
  }
}
