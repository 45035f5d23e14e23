package org.flodl.budget.agent.gate;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.flodl.budget.policy.SpinWait;
import org.flodl.budget.pricing.RetentionPricer;

/**
 * The engine's pricer, made on first use: its service lookup costs start-up time. The first
 * decisions of a loader arrive together; one thread makes the pricer, and the others wait for it by
 * spinning ({@link SpinWait}), not on a monitor: a virtual thread blocked on a monitor leaves its
 * carrier (JDK 24 and later) to the next sample's thread, which would reach the same wait, so
 * hundreds of threads piled up inside a cache's {@code put} in a loader's first milliseconds. A
 * factory that throws lets the next caller try again.
 */
final class LazyPricer {
  private final Supplier<RetentionPricer> factory;
  private volatile RetentionPricer pricer;

  /** Set while a thread makes the pricer (read only until the pricer is made). */
  private final AtomicBoolean making = new AtomicBoolean();

  LazyPricer(Supplier<RetentionPricer> factory) {
    this.factory = factory;
  }

  /** Returns the pricer, made by the factory at the first call. */
  RetentionPricer get() {
    RetentionPricer p = pricer;
    return p != null ? p : make();
  }

  private RetentionPricer make() {
    long since = 0;
    for (int tries = 0; ; tries++) {
      RetentionPricer p = pricer;
      if (p != null) {
        return p;
      }
      if (making.compareAndSet(false, true)) {
        try {
          p = pricer;
          if (p == null) {
            p = factory.get();
            pricer = p;
          }
          return p;
        } finally {
          making.set(false);
        }
      }
      since = SpinWait.pause(tries, since);
    }
  }
}
