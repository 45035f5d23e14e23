package org.flodl.budget.pricing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** What {@link RetentionPricer#standard} makes a pricer of when it is given nothing else. */
final class Defaults {
  private Defaults() {}

  // An anonymous class, not a lambda: the pricer is made on an application thread at the first
  // admission, and a JVM's first lambda bootstrap costs it milliseconds of start-up.
  static final Consumer<String> STDERR =
      new Consumer<String>() {
        @Override
        public void accept(String line) {
          System.err.println("flodl-budget: " + line);
        }
      };

  static final LongSupplier NANO_TIME =
      new LongSupplier() {
        @Override
        public long getAsLong() {
          return System.nanoTime();
        }
      };

  static Supplier<JdkAccess> constant(JdkAccess jdk) {
    return new Supplier<JdkAccess>() {
      @Override
      public JdkAccess get() {
        return jdk;
      }
    };
  }

  /** Returns the {@link ValuePricer}s {@code spiLoader} serves, a broken one said and skipped. */
  static List<ValuePricer> applicationPricers(ClassLoader spiLoader, Consumer<String> notice) {
    List<ValuePricer> found = new ArrayList<>();
    Iterator<ValuePricer> it = ServiceLoader.load(ValuePricer.class, spiLoader).iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        found.add(it.next());
      } catch (ServiceConfigurationError e) {
        notice.accept("a ValuePricer could not be loaded, skipped: " + e.getMessage());
      }
    }
    return found;
  }
}
