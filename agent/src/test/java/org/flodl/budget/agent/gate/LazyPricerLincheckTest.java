package org.flodl.budget.agent.gate;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.flodl.budget.pricing.RetentionPricer;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * The lazy pricer under every interleaving a model checker explores, and under real threads: the
 * first decisions of a loader ask for the pricer together. What it promises: the factory runs once
 * ({@link #quiescent}), and every caller gets the one pricer it made ({@link #get}); the callers
 * that wait spin, so the model checker sees every wait (no monitor hides one).
 */
public class LazyPricerLincheckTest {
  /** The pricer the factory makes: one, made once for the test (its making is not under test). */
  private static final RetentionPricer PRICER =
      RetentionPricer.standard(
          null, LazyPricerLincheckTest.class.getClassLoader(), line -> {}, List.of());

  private final AtomicInteger made = new AtomicInteger();
  private final LazyPricer lazy =
      new LazyPricer(
          () -> {
            made.incrementAndGet();
            return PRICER;
          });

  /**
   * Returns whether this caller got the one pricer, made once so far: a second making shows in the
   * results, as no sequential order of the calls could give them.
   */
  @Operation
  public boolean get() {
    return lazy.get() == PRICER && made.get() == 1;
  }

  @Validate
  public void quiescent() {
    if (made.get() > 1) {
      throw new IllegalStateException("the pricer was made " + made.get() + " times");
    }
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(20)
        .invocationsPerIteration(300)
        .threads(3)
        .actorsPerThread(2)
        .check(LazyPricerLincheckTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(20)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(2)
        .check(LazyPricerLincheckTest.class);
  }
}
