package org.flodl.budget.agent.gate;

import java.util.function.Supplier;
import org.flodl.budget.pricing.RetentionPricer;

/** The engine's pricer, made on first use: its service lookup costs start-up time. */
final class LazyPricer {
  private final Supplier<RetentionPricer> factory;
  private volatile RetentionPricer pricer;

  LazyPricer(Supplier<RetentionPricer> factory) {
    this.factory = factory;
  }

  /** Returns the pricer, made by the factory at the first call. */
  RetentionPricer get() {
    RetentionPricer p = pricer;
    if (p == null) {
      synchronized (this) {
        p = pricer;
        if (p == null) {
          p = factory.get();
          pricer = p;
        }
      }
    }
    return p;
  }
}
