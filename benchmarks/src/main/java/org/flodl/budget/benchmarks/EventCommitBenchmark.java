package org.flodl.budget.benchmarks;

import java.util.concurrent.TimeUnit;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ReleaseEvent;
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
 * {@code baseline} is the same arguments consumed without the event. {@code release} commits the
 * other event of a cache's hot path ({@code flodl.budget.Release}), and {@code emptyEvent} an event
 * with no fields of its own: what Flight Recorder itself costs per event on this machine (its
 * timestamp, thread and header), the floor under any event.
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
    boolean stacks = !recording.equals("recording");
    for (String name : new String[] {CacheAdmissionEvent.NAME, ReleaseEvent.NAME, Empty.NAME}) {
      if (stacks) {
        running.enable(name).withStackTrace();
      } else {
        running.enable(name).withoutStackTrace();
      }
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
    CacheAdmissionEvent.decided()
        .site("samples")
        .tier("heap")
        .valueType("byte[]")
        .logicalBytes(4096)
        .storageBytes(4096)
        .chargedBytes(4096)
        .decision("ADMIT")
        .heldBytes(held)
        .budgetBytes(1L << 30)
        .availableBytes(8L << 30)
        .emit();
    return held;
  }

  /** Returns after committing (or skipping) one release event. */
  @Benchmark
  public long release() {
    held += 4096;
    ReleaseEvent.emit("samples", "heap", 4096, "RELEASE_SITE", held);
    return held;
  }

  /** Returns after committing (or skipping) one event with no fields of its own. */
  @Benchmark
  public long emptyEvent() {
    held += 4096;
    Empty e = new Empty();
    e.commit();
    return held;
  }

  /** An event with nothing but Flight Recorder's own fields. */
  @Name(Empty.NAME)
  @StackTrace(false)
  static final class Empty extends Event {
    static final String NAME = "flodl.bench.Empty";
  }
}
