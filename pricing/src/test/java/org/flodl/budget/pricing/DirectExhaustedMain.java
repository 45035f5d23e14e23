package org.flodl.budget.pricing;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * Child JVM for {@link NoJdkAccessTest}: direct memory capped at 1 MiB, a 768 KiB owner, and a 300
 * KiB view of it past the slack factor, whose copy cannot be had. Prints the estimate and how
 * retain ended.
 */
public final class DirectExhaustedMain {
  private DirectExhaustedMain() {}

  public static void main(String[] args) {
    RetentionPricer pricer =
        RetentionPricer.standard(null, DirectExhaustedMain.class.getClassLoader());
    ByteBuffer owner = ByteBuffer.allocateDirect(768 << 10);
    ByteBuffer view = owner.slice(0, 300 << 10);
    Priced p = pricer.estimate(view);
    System.out.println("estimate=" + p.chargedBytes() + "," + p.materialize());
    try {
      Retained r = pricer.retain(view);
      System.out.println("retained=" + r.materialized());
    } catch (RetentionException e) {
      System.out.println("declined=" + e.getMessage().replace('\n', ' '));
    }
    try {
      pricer.retainRows(List.of(new byte[8], view));
      System.out.println("rows=retained");
    } catch (RetentionException e) {
      System.out.println("rows=declined");
    }
    // The owner is still usable, and a view within the slack is still kept.
    System.out.println("kept=" + pricer.estimate(owner.slice(0, 500 << 10)).chargedBytes());
  }
}
