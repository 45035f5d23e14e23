package org.flodl.budget.benchmarks;

import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import org.flodl.budget.events.CacheAdmissionEvent;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost of one {@code flodl.budget.CacheAdmission} through {@link CacheAdmissionEvent#emit}:
 * with no recording (the disabled path, a branch), with a recording that enables the event as
 * flodl-budget.jfc does (no stack trace), and with stack traces turned on (what a hot-path event
 * would cost without {@code @StackTrace(false)}). The recording runs to disk, as the agent's does;
 * {@code baseline} is the same arguments consumed without the event.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am package -DskipTests
 * java -jar benchmarks/target/benchmarks.jar EventCommitBenchmark
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class EventCommitBenchmark {
  @Param({"none", "recording", "recording-stacktrace"})
  public String recording;

  private Recording running;
  private long held;

  @Setup(Level.Trial)
  public void start() {
    if (recording.equals("none")) {
      return;
    }
    running = new Recording();
    running.enable(CacheAdmissionEvent.NAME).withStackTrace();
    if (recording.equals("recording")) {
      running.enable(CacheAdmissionEvent.NAME).withoutStackTrace();
    }
    running.setToDisk(true);
    running.start();
  }

  @TearDown(Level.Trial)
  public void stop() {
    if (running != null) {
      running.close();
    }
  }

  /** Returns the held bytes passed, so the JIT keeps the argument work. */
  @Benchmark
  public long baseline() {
    held += 4096;
    return held;
  }

  /** Returns after committing (or skipping) one admission event. */
  @Benchmark
  public long cacheAdmission() {
    held += 4096;
    CacheAdmissionEvent.emit("samples", "heap", "byte[]", 4096, 4096, 4096, false, "ADMIT",
        held, 1L << 30, 8L << 30);
    return held;
  }
}
