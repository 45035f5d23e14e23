package org.flodl.budget.agent.gate;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import org.flodl.budget.agent.library.Log;

/**
 * The body of the daemon thread {@code flodl-budget-release}: it hands back the bytes of each
 * holding whose value the collector enqueued (passing by those a release site released, see {@link
 * Holding#RELEASED}), and has the {@link Holdings} swept once the collected holdings still linked
 * are a quarter of what a sweep walks (the linked holdings and the buckets), so a sweep costs each
 * collected holding a constant.
 */
final class Releaser implements Runnable {
  /** Collected holdings the releaser lets stay linked before it sweeps: at least this many. */
  private static final int SWEEP_AT_LEAST = 4096;

  private final Holdings holdings;
  private final ReferenceQueue<Object> collected;

  /** Holdings released by collection and maybe still linked. */
  private long collectedLinked;

  /** When the releaser next counts the linked holdings to decide on a sweep. */
  private long sweepCheckAt = SWEEP_AT_LEAST;

  Releaser(Holdings holdings, ReferenceQueue<Object> collected) {
    this.holdings = holdings;
    this.collected = collected;
  }

  @Override
  public void run() {
    GateThread self = GateThread.current();
    while (true) {
      try {
        Reference<?> r = collected.remove();
        if (r instanceof Holding h && Holding.NEXT.getAcquire(h) != Holding.RELEASED) {
          h.release(CacheSite.COLLECTED, self);
          if (++collectedLinked >= sweepCheckAt) {
            long[] c = holdings.census();
            long cost = c[0] + c[1];
            if (collectedLinked * 4 >= cost) {
              holdings.sweep();
              collectedLinked = 0;
              sweepCheckAt = SWEEP_AT_LEAST;
            } else {
              sweepCheckAt = Math.max(collectedLinked + SWEEP_AT_LEAST, cost / 4);
            }
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        Log.warnOnce("releaser", "releasing a collected value failed (" + t + "); going on");
      }
    }
  }
}
