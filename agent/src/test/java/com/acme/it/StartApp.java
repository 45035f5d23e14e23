package com.acme.it;

/**
 * The smallest job a start-up check can run: one put into a {@link SampleStore} and one {@link
 * Feeder} made and read, then it exits. {@code StartPathIT} counts the classes it loads.
 */
public final class StartApp {
  private StartApp() {}

  /**
   * Puts one value, makes one feeder and reads its first batch; then waits {@code args[0]} ms (if
   * given), so that what an agent starts in the background has finished when the JVM exits.
   */
  public static void main(String[] args) throws InterruptedException {
    SampleStore store = new SampleStore();
    store.put(1, new byte[1024]);
    Feeder feeder = new Feeder("start", 4, 1024, false);
    System.out.println(
        "STARTED size="
            + store.size()
            + " depth="
            + feeder.depth()
            + " batch="
            + feeder.next().size());
    if (args.length > 0) {
      Thread.sleep(Long.parseLong(args[0]));
    }
  }
}
