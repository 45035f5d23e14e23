package org.flodl.budget.benchmarks;

import java.util.concurrent.TimeUnit;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The admission arithmetic on the hot path: one anchored budget, and one reservation and release
 * against a tier ledger, alone and with 2 threads contending; and 2 threads at a budget so tight
 * (100 KiB, each reserving 60 KiB) that a reservation sweeps the other stripe's unused bytes back,
 * or declines while the other holds its 60 KiB: the slow path, under the grants' lock.
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar LedgerBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LedgerBenchmark {
  private final TierLedger ledger = new TierLedger(Tier.HEAP, Long.MAX_VALUE / 2);
  private long available = 8L << 30;

  /** Fits one 60 KiB reservation and what its stripe keeps after it, not two. */
  private final TierLedger tight = new TierLedger(Tier.DIRECT, 100 << 10);

  @Benchmark
  public long anchoredBudget() {
    return BudgetPolicy.anchoredRamBudget(available, 1L << 30, 0.5);
  }

  @Benchmark
  public boolean reserveAndRelease() {
    return ledger.tryReserve(4096).reservation().release();
  }

  @Benchmark
  @Threads(2)
  public boolean reserveAndReleaseContended() {
    return ledger.tryReserve(4096).reservation().release();
  }

  @Benchmark
  @Threads(2)
  public boolean reserveAndReleaseAtTheBudget() {
    TierLedger.Reservation r = tight.tryReserve(60 << 10).reservation();
    return r != null && r.release();
  }
}
