package org.flodl.budget.share;

import java.nio.file.Path;

/**
 * A stand-in rank for the co-hosted tests: joins {@code job} under {@code root}, consumes {@code
 * rate} units a second, and prints {@code share=X} every 200 ms until killed (or 60 s).
 */
public final class ShareRankMain {
  private ShareRankMain() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]);
    String job = args[1];
    double rate = Double.parseDouble(args[2]);
    HostShareRegistry registry =
        HostShareRegistry.join(
            root, job, ProcessHandle.current().pid(), 1_500, System.err::println);
    RateMeter meter = new RateMeter(1_000);
    try (HostShare share = HostShare.start(registry, meter, 250, System.err::println)) {
      long end = System.currentTimeMillis() + 60_000;
      while (System.currentTimeMillis() < end) {
        Thread.sleep(100);
        meter.add(Math.round(rate * 100)); // rate units/s, in 100 ms slices (x1000 for resolution)
        System.out.println("share=" + share.share());
        System.out.flush();
      }
    }
  }
}
