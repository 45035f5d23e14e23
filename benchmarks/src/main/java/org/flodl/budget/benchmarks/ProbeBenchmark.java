package org.flodl.budget.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.probes.DirectMemory;
import org.flodl.budget.probes.DirectMemoryProbe;
import org.flodl.budget.probes.HeapMemory;
import org.flodl.budget.probes.HeapProbe;
import org.flodl.budget.probes.HostMemory;
import org.flodl.budget.probes.HostMemoryProbe;
import org.flodl.budget.probes.HostMemoryProbes;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.RamProbe;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramProbes;
import org.flodl.budget.probes.VramReading;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one refresh of each memory probe costs, against what a decision pays to read the cached
 * snapshot: the {@code proc} host probe (meminfo and the cgroup files, and meminfo alone), the
 * JDK's {@code mxbean} alternative, the heap probe (no collection since its last read, and a fresh
 * probe that reads the last {@code GcInfo}), the direct probe, {@code vram_probe=auto} once it has
 * failed, a full {@code MemoryProbes.refresh()}, and the hot path's {@code snapshot()} and {@code
 * refreshIfStale()}.
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests && java -jar
 * benchmarks/target/benchmarks.jar ProbeBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProbeBenchmark {
  private HostMemoryProbe proc;
  private HostMemoryProbe meminfoOnly;
  private RamProbe mxbean;
  private HeapProbe heap;
  private DirectMemoryProbe direct;
  private VramProbe vramAuto;
  private MemoryProbes probes;

  @Setup
  public void setUp() {
    proc = HostMemoryProbe.system();
    meminfoOnly = HostMemoryProbe.forRoot(meminfoOnlyRoot());
    mxbean = HostMemoryProbes.fromSpec("mxbean");
    heap = new HeapProbe();
    direct = new DirectMemoryProbe();
    vramAuto = VramProbes.fromSpec("auto");
    vramAuto.read(0); // the first read pays for the library lookups; later ones do not
    probes = MemoryProbes.fromSpecs("auto", "none", Duration.ofHours(1), null);
    System.gc(); // so the heap probe has a collection to read
  }

  @TearDown
  public void tearDown() {
    probes.close();
    proc.close();
    meminfoOnly.close();
  }

  /** Returns a root whose only file is a link to this machine's {@code /proc/meminfo}. */
  private static Path meminfoOnlyRoot() {
    try {
      Path root = Files.createTempDirectory("probe-bench");
      Path proc = Files.createDirectories(root.resolve("proc"));
      Files.createSymbolicLink(proc.resolve("meminfo"), Path.of("/proc/meminfo"));
      root.toFile().deleteOnExit();
      proc.toFile().deleteOnExit();
      proc.resolve("meminfo").toFile().deleteOnExit();
      return root;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Benchmark
  public HostMemory hostProcRefresh() {
    return proc.read();
  }

  @Benchmark
  public HostMemory hostProcMeminfoOnlyRefresh() {
    return meminfoOnly.read();
  }

  @Benchmark
  public HostMemory hostMxBeanRefresh() {
    return mxbean.read();
  }

  @Benchmark
  public HeapMemory heapRefresh() {
    return heap.read();
  }

  @Benchmark
  public HeapMemory heapRefreshReadingGcInfo() {
    return new HeapProbe().read();
  }

  @Benchmark
  public DirectMemory directRefresh() {
    return direct.read(1L << 30);
  }

  @Benchmark
  public VramReading vramAutoFailedRefresh() {
    return vramAuto.read(0);
  }

  @Benchmark
  public MemorySnapshot allProbesRefresh() {
    return probes.refresh();
  }

  @Benchmark
  public long cachedSnapshotRead() {
    return probes.snapshot().availableBytes(Tier.NATIVE);
  }

  @Benchmark
  public long cachedRefreshIfStale() {
    return probes.refreshIfStale().availableBytes(Tier.HEAP);
  }
}
