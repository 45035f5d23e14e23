package org.flodl.budget.pricing;

import java.nio.ByteBuffer;

/**
 * Child JVM for {@link NoJdkAccessTest}: java.base exports nothing to the pricer. Prices direct
 * views of a 1 MiB buffer (first from four threads at once) and a read-only heap view with the
 * standard pricer (notices on stderr) and prints what it saw, one {@code key=value} a line.
 */
public final class NoJdkAccessMain {
  private NoJdkAccessMain() {}

  public static void main(String[] args) throws Exception {
    RetentionPricer pricer = RetentionPricer.standard(null, NoJdkAccessMain.class.getClassLoader());
    System.out.println("limitation=" + pricer.limitation());
    ByteBuffer owner = ByteBuffer.allocateDirect(1 << 20);
    // Four threads meet the limitation at once: it is still said once.
    Thread[] threads = new Thread[4];
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    for (int t = 0; t < threads.length; t++) {
      threads[t] =
          new Thread(
              () -> {
                try {
                  start.await();
                } catch (InterruptedException e) {
                  return;
                }
                for (int i = 0; i < 1000; i++) {
                  pricer.estimate(owner.slice(i, 64));
                }
              });
      threads[t].start();
    }
    start.countDown();
    for (Thread t : threads) {
      t.join();
    }
    for (int i = 0; i < 3; i++) {
      ByteBuffer view = owner.slice(i * 4096, 4096);
      Priced p = pricer.estimate(view);
      Retained r = pricer.retain(view);
      System.out.println(
          "direct."
              + i
              + "="
              + p.tier().label()
              + ","
              + p.logicalBytes()
              + ","
              + p.storageBytes()
              + ","
              + p.chargedBytes()
              + ","
              + p.materialize()
              + ","
              + (r.value() == view)
              + ","
              + r.price().equals(p));
    }
    ByteBuffer readOnly = ByteBuffer.allocate(1 << 16).asReadOnlyBuffer().slice(0, 64);
    Priced p = pricer.estimate(readOnly);
    System.out.println(
        "readonly=" + p.storageBytes() + "," + p.chargedBytes() + "," + p.materialize());
    ByteBuffer heap = ByteBuffer.allocate(1 << 16).slice(0, 64);
    Priced h = pricer.estimate(heap);
    System.out.println("heap=" + h.storageBytes() + "," + h.chargedBytes() + "," + h.materialize());
  }
}
