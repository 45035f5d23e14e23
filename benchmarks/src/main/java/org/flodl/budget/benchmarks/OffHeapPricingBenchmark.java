package org.flodl.budget.benchmarks;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.util.TransferPair;
import org.flodl.budget.agent.arrow.ArrowSupport;
import org.flodl.budget.agent.ffm.FfmSupport;
import org.flodl.budget.agent.netty.NettySupport;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.TypePricer;
import org.flodl.budget.pricing.ValuePricer;
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
 * The price of one off-heap slice at cache admission, through the agent's Arrow and Netty units
 * (their {@code TypePricer}s, as the agent gives them to the pricer), beside a {@code byte[]} of
 * the same 1 KiB: an {@code ArrowBuf} slice of a 2 MiB row group (Unsafe allocation manager), a
 * {@code Float4Vector} of 256 floats split out of one, a Netty {@code retainedSlice} of a 256 KiB
 * pooled direct buffer, and (JDK 22+, through the agent's FFM unit) a 1 KiB memory-segment slice of
 * a 2 MiB segment of an automatic and of a shared arena. {@link #copy} times, beside the pricing,
 * the copy the admission makes of a slice past the seed's slack (Arrow's from its allocator, closed
 * again; an automatic arena's into a new one); a value it does not copy (the array, the Netty and
 * shared-arena slices) is returned as it is.
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests && java
 * --add-opens=java.base/java.nio=ALL-UNNAMED -jar benchmarks/target/benchmarks.jar
 * OffHeapPricingBenchmark}; the segments' run with JDK 25's {@code java} and {@code -p
 * sample=segment-auto-slice,segment-shared-slice,arrow-buf-slice}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/jdk.internal.foreign=ALL-UNNAMED",
      "-Darrow.allocation.manager.type=Unsafe"
    })
public class OffHeapPricingBenchmark {
  @Param({
    "byte-array-1k",
    "arrow-buf-slice",
    "arrow-vector-slice",
    "netty-retained-slice",
    "segment-auto-slice",
    "segment-shared-slice"
  })
  public String sample;

  private RetentionPricer pricer;
  private Object value;
  private Priced price;
  private ValuePricer copier; // null: the admission does not copy this sample
  private BufferAllocator allocator;
  private AutoCloseable group;

  private final List<TypePricer> libraries = new ArrayList<>();

  @Setup(Level.Trial)
  public void setUp() {
    for (TypePricer t :
        new TypePricer[] {
          new ArrowSupport().typePricer(),
          new NettySupport().typePricer(),
          new FfmSupport().typePricer() // none before JDK 22
        }) {
      if (t != null) {
        libraries.add(t);
      }
    }
    pricer =
        RetentionPricer.standard(
            null, OffHeapPricingBenchmark.class.getClassLoader(), line -> {}, libraries);
    allocator = new RootAllocator(1L << 30);
    switch (sample) {
      case "byte-array-1k":
        value = new byte[1024];
        break;
      case "arrow-buf-slice":
        {
          Float4Vector v = new Float4Vector("group", allocator);
          v.allocateNew(1024 * 256);
          v.setValueCount(1024 * 256);
          ArrowBuf slice = v.getDataBuffer().slice(4096L * 7, 1024);
          slice.getReferenceManager().retain(); // the cache's reference, closed at tear-down
          value = slice;
          group = v;
          break;
        }
      case "arrow-vector-slice":
        {
          Float4Vector v = new Float4Vector("group", allocator);
          v.allocateNew(1024 * 256);
          v.setValueCount(1024 * 256);
          TransferPair pair = v.getTransferPair(allocator);
          pair.splitAndTransfer(256 * 7, 256);
          value = pair.getTo();
          group = v;
          break;
        }
      case "netty-retained-slice":
        {
          ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(256 << 10);
          b.writerIndex(256 << 10);
          value = b.retainedSlice(4096 * 7, 1024);
          group = b::release;
          break;
        }
      case "segment-auto-slice":
      case "segment-shared-slice":
        value = segmentSlice(sample.equals("segment-auto-slice") ? "ofAuto" : "ofShared");
        break;
      default:
        throw new IllegalArgumentException(sample);
    }
    Priced p = pricer.estimate(value);
    if (!sample.startsWith("byte") && p.storageBytes() < 256 << 10) {
      throw new IllegalStateException(sample + " was not priced by its allocation: " + p);
    }
    price = p;
    if (p.materialize()) {
      for (TypePricer library : libraries) {
        copier = library.pricerOf(value.getClass());
        if (copier != null) {
          break;
        }
      }
    }
  }

  /**
   * Returns a 1 KiB slice of a 2 MiB segment of a new arena ({@code Arena.ofAuto()} or {@code
   * ofShared()}, never closed), through method handles: JDK 22+, this class compiles for 17.
   */
  private static Object segmentSlice(String arena) {
    try {
      java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.publicLookup();
      Class<?> arenas = Class.forName("java.lang.foreign.Arena");
      Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
      Object a =
          l.findStatic(arenas, arena, java.lang.invoke.MethodType.methodType(arenas)).invoke();
      Object group =
          l.findVirtual(
                  Class.forName("java.lang.foreign.SegmentAllocator"),
                  "allocate",
                  java.lang.invoke.MethodType.methodType(segment, long.class))
              .invoke(a, 2L << 20);
      return l.findVirtual(
              segment,
              "asSlice",
              java.lang.invoke.MethodType.methodType(segment, long.class, long.class))
          .invoke(group, 4096L * 7, 1024L);
    } catch (Throwable t) {
      throw new UnsupportedOperationException("memory segments need JDK 22+: " + t, t);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    if (value instanceof ByteBuf b) {
      b.release();
    } else if (value instanceof AutoCloseable c) {
      c.close();
    }
    if (group != null) {
      group.close();
    }
    allocator.close();
  }

  @Benchmark
  public Priced estimate() {
    return pricer.estimate(value);
  }

  /**
   * The copy a cache is handed instead of the slice, as its library's pricer makes it (an Arrow or
   * Netty copy given back to its allocator at once); the value itself where the admission copies
   * none.
   */
  @Benchmark
  public Object copy() throws Exception {
    if (copier == null) {
      return value;
    }
    Object c = copier.materialize(value, price);
    if (c instanceof ByteBuf b) {
      b.release(); // back to its pool
    } else if (c instanceof AutoCloseable a) {
      a.close();
    }
    return c;
  }
}
