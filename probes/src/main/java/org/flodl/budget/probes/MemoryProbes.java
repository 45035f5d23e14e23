package org.flodl.budget.probes;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The probes the policy reads, behind a cache: {@link #snapshot()} is a volatile read that never
 * touches a file or a bean, {@link #refresh()} reads every probe now. The owner refreshes at most
 * once per {@code probe_interval} (default 1 s: {@link #refreshIfStale()} from any thread; the
 * agent's probe thread is its one scheduler) and at each epoch boundary ({@link #refresh()}), so a
 * decision on the hot path never reads a file. VRAM readings are cached per device and re-read at
 * each refresh for every device asked about so far.
 */
public final class MemoryProbes implements AutoCloseable {
  /** The default {@code probe_interval}. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  private final RamProbe ram;
  private final HeapProbe heap;
  private final DirectMemoryProbe direct;
  private final VramProbe vram;
  private final Duration interval;
  private final long intervalNanos;
  private final LongSupplier clock;
  private final Map<Integer, VramReading> vramByDevice = new ConcurrentHashMap<>();
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private volatile MemorySnapshot snapshot;

  /** Returns probes cached for {@code interval}; reads them once now. */
  public MemoryProbes(
      RamProbe ram, HeapProbe heap, DirectMemoryProbe direct, VramProbe vram, Duration interval) {
    this(
        ram,
        heap,
        direct,
        vram,
        interval,
        new LongSupplier() { // no lambda: start-up
          @Override
          public long getAsLong() {
            return System.nanoTime();
          }
        });
  }

  MemoryProbes(
      RamProbe ram,
      HeapProbe heap,
      DirectMemoryProbe direct,
      VramProbe vram,
      Duration interval,
      LongSupplier clock) {
    this.ram = Objects.requireNonNull(ram, "ram");
    this.heap = Objects.requireNonNull(heap, "heap");
    this.direct = Objects.requireNonNull(direct, "direct");
    this.vram = Objects.requireNonNull(vram, "vram");
    if (interval.isNegative()) {
      throw new IllegalArgumentException("probe_interval cannot be negative, got " + interval);
    }
    this.interval = interval;
    this.intervalNanos = saturatedNanos(interval);
    this.clock = clock;
    refresh();
  }

  /**
   * Returns the probes {@code ram_probe} and {@code vram_probe} name, the JNA probes on {@code
   * jnaLoader}'s JNA (null: {@link JnaLoaders#defaultLoader()}).
   *
   * @throws IllegalArgumentException naming the setting that is not valid
   */
  public static MemoryProbes fromSpecs(
      String ramSpec, String vramSpec, Duration interval, ClassLoader jnaLoader) {
    RamProbe ram = HostMemoryProbes.fromSpec(ramSpec); // named first when both are not valid
    return of(ram, VramProbes.fromSpec(vramSpec, jnaLoader), interval);
  }

  /**
   * Returns the probes {@code ram_probe} names, with {@code vram} as the GPU probe (one the caller
   * also reads on its own, say before the first refresh: its reads are thread-safe).
   *
   * @throws IllegalArgumentException naming the setting that is not valid
   */
  public static MemoryProbes fromSpecs(String ramSpec, VramProbe vram, Duration interval) {
    return of(HostMemoryProbes.fromSpec(ramSpec), vram, interval);
  }

  private static MemoryProbes of(RamProbe ram, VramProbe vram, Duration interval) {
    return new MemoryProbes(ram, new HeapProbe(), new DirectMemoryProbe(), vram, interval);
  }

  /** Returns the latest snapshot: a volatile read, never a file. */
  public MemorySnapshot snapshot() {
    return snapshot;
  }

  /** Returns a snapshot read now (all probes, and VRAM for every device asked about so far). */
  public synchronized MemorySnapshot refresh() {
    HostMemory host = readHost();
    HeapMemory h = heap.read();
    DirectMemory d = direct.read(host.availableBytes());
    for (Integer device : vramByDevice.keySet()) {
      vramByDevice.put(device, readVram(device));
    }
    MemorySnapshot s = new MemorySnapshot(clock.getAsLong(), host, h, d);
    snapshot = s;
    return s;
  }

  /**
   * Returns a fresh snapshot when the cached one is older than the interval (one caller reads,
   * concurrent ones get the cached snapshot without waiting), else the cached one.
   */
  public MemorySnapshot refreshIfStale() {
    if (stale() && refreshing.compareAndSet(false, true)) {
      try {
        if (stale()) {
          return refresh();
        }
      } finally {
        refreshing.set(false);
      }
    }
    return snapshot;
  }

  /** Returns whether the snapshot is at least one interval old. */
  public boolean stale() {
    return clock.getAsLong() - snapshot.takenAtNanos() >= intervalNanos;
  }

  /** Returns device {@code device}'s cached VRAM reading, reading it the first time it is asked. */
  public VramReading vram(int device) {
    VramReading cached = vramByDevice.get(device);
    if (cached != null) {
      return cached;
    }
    synchronized (this) {
      VramReading v = vramByDevice.get(device);
      if (v == null) {
        v = readVram(device);
        vramByDevice.put(device, v);
      }
      return v;
    }
  }

  /** Returns the host probe's reading; a probe that breaks its contract reads as failed. */
  private HostMemory readHost() {
    try {
      HostMemory m = ram.read();
      return m != null ? m : HostMemory.failure(ram.name(), "the probe returned nothing");
    } catch (RuntimeException e) {
      return HostMemory.failure(ram.name(), "the probe threw " + e);
    }
  }

  /** Returns the GPU probe's reading; a probe that breaks its contract reads as failed. */
  private VramReading readVram(int device) {
    return VramProbes.read(vram, device);
  }

  /** Returns {@code probe_interval}. */
  public Duration interval() {
    return interval;
  }

  /** Returns the host-RAM probe (its {@link RamProbe#name()} goes in the configuration event). */
  public RamProbe ramProbe() {
    return ram;
  }

  /** Returns the GPU probe. */
  public VramProbe vramProbe() {
    return vram;
  }

  /** Closes the files the host probe holds. */
  @Override
  public synchronized void close() {
    if (ram instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // closing is best effort: a probe read later reopens what it needs
      }
    }
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }
}
