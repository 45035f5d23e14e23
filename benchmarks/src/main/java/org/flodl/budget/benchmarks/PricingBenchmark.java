package org.flodl.budget.benchmarks;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionException;
import org.flodl.budget.pricing.RetentionPricer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Retention pricing of one typical sample at cache admission: {@code estimate} prices it (the copy
 * excluded, the figure the 200 ns budget is about), {@code retain} prices it and makes the
 * materializing copy where the slack rule asks for one. Samples: a 4 KiB view of a 1 MiB heap or
 * direct buffer (copied), a 4 KiB float view of a 1 MiB direct buffer, a 4 KiB buffer that owns its
 * storage (kept), a 4 KiB {@code byte[]}, and two lists of {@code float[256]} samples, of 10,000
 * (walked whole) and of 1,000,000 (the walk's bound at work: 64 Ki visits or 1 ms, the rest
 * extrapolated). The fork gets the access the agent grants ({@link
 * RetentionPricer#grantJdkAccess}). {@code seedArithmetic}, the seed's rule on two numbers, is the
 * floor the figures are read against on a loaded machine.
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar PricingBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED"
    })
public class PricingBenchmark {
  @Param({
    "heap-view",
    "direct-view",
    "direct-float-view",
    "direct-owned",
    "byte-array",
    "list-10k-float256",
    "list-1M-float256"
  })
  public String sample;

  private RetentionPricer pricer;
  private Object value;
  private long logical = 4096;
  private long storage = 1 << 20;

  @Setup(Level.Trial)
  public void setUp() {
    pricer = RetentionPricer.standard(null, PricingBenchmark.class.getClassLoader(), line -> {});
    if (pricer.limitation() != null) {
      throw new IllegalStateException(pricer.limitation());
    }
    switch (sample) {
      case "heap-view":
        value = ByteBuffer.allocate(1 << 20).slice(8192, 4096);
        break;
      case "direct-view":
        value = ByteBuffer.allocateDirect(1 << 20).slice(8192, 4096);
        break;
      case "direct-float-view":
        value =
            ByteBuffer.allocateDirect(1 << 20)
                .order(ByteOrder.nativeOrder())
                .asFloatBuffer()
                .slice(2048, 1024);
        break;
      case "direct-owned":
        value = ByteBuffer.allocateDirect(4096);
        break;
      case "byte-array":
        value = new byte[4096];
        break;
      case "list-10k-float256":
        value = floats(10_000);
        break;
      case "list-1M-float256":
        value = floats(1_000_000);
        break;
      default:
        throw new IllegalArgumentException(sample);
    }
  }

  private static java.util.List<float[]> floats(int n) {
    java.util.List<float[]> list = new java.util.ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      list.add(new float[256]);
    }
    return list;
  }

  /** The seed's arithmetic alone on two numbers: the floor pricing is measured against. */
  @Benchmark
  public long seedArithmetic() {
    return BudgetPolicy.retainedCost(logical, storage);
  }

  @Benchmark
  public Priced estimate() {
    return pricer.estimate(value);
  }

  @Benchmark
  public Object retain() throws RetentionException {
    return pricer.retain(value).value();
  }
}
