package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;

/** The probes' cache: decisions read a snapshot, probes are read once per interval at most. */
class MemoryProbesTest {

  /** A host probe that counts its reads and reports what the test sets. */
  static final class CountingRam implements RamProbe {
    final AtomicInteger reads = new AtomicInteger();
    volatile long available = 1L << 30;

    @Override
    public HostMemory read() {
      reads.incrementAndGet();
      return new HostMemory(available, available, -1, -1, -1, "counting", null);
    }

    @Override
    public String name() {
      return "counting";
    }
  }

  /** A GPU probe that counts its reads. */
  static final class CountingVram implements VramProbe {
    final AtomicInteger reads = new AtomicInteger();

    @Override
    public VramReading read(int device) {
      reads.incrementAndGet();
      return new VramReading(reads.get(), 100 + device, "counting", null);
    }

    @Override
    public String name() {
      return "counting";
    }
  }

  private final AtomicLong now = new AtomicLong(1_000);
  private final CountingRam ram = new CountingRam();
  private final CountingVram vram = new CountingVram();

  private MemoryProbes probes(Duration interval) {
    return new MemoryProbes(
        ram, new HeapProbe(), new DirectMemoryProbe(), vram, interval, now::get);
  }

  @Test
  void aSnapshotIsReadOnceAndNeverReadsTheProbesAgain() {
    MemoryProbes p = probes(Duration.ofSeconds(1));
    assertEquals(1, ram.reads.get(), "the constructor takes the first snapshot");
    MemorySnapshot first = p.snapshot();
    for (int i = 0; i < 1000; i++) {
      assertSame(first, p.snapshot());
    }
    now.addAndGet(5_000_000_000L);
    assertSame(first, p.snapshot(), "even when stale, snapshot() reads nothing");
    assertEquals(1, ram.reads.get());
  }

  @Test
  void refreshIfStaleReadsAtMostOncePerInterval() {
    MemoryProbes p = probes(Duration.ofSeconds(1));
    MemorySnapshot first = p.snapshot();
    now.addAndGet(999_999_999L);
    assertFalse(p.stale());
    assertSame(first, p.refreshIfStale());
    assertEquals(1, ram.reads.get());
    now.addAndGet(1);
    assertTrue(p.stale());
    ram.available = 123;
    MemorySnapshot second = p.refreshIfStale();
    assertNotSame(first, second);
    assertEquals(123, second.host().availableBytes());
    assertEquals(2, ram.reads.get());
    assertSame(second, p.refreshIfStale());
    assertEquals(2, ram.reads.get());
  }

  @Test
  void anEpochBoundaryRefreshesWhateverTheInterval() {
    MemoryProbes p = probes(Duration.ofHours(1));
    ram.available = 7;
    assertEquals(7, p.refresh().availableBytes(Tier.NATIVE));
    assertEquals(2, ram.reads.get());
  }

  @Test
  void vramIsCachedPerDeviceAndReReadAtEachRefresh() {
    MemoryProbes p = probes(Duration.ofSeconds(1));
    assertEquals(0, vram.reads.get(), "no device asked about yet: nothing read");
    VramReading d0 = p.vram(0);
    assertEquals(100, d0.totalBytes());
    assertSame(d0, p.vram(0));
    assertEquals(101, p.vram(1).totalBytes());
    assertEquals(2, vram.reads.get());
    p.refresh();
    assertEquals(4, vram.reads.get(), "both devices re-read");
    assertNotSame(d0, p.vram(0));
  }

  @Test
  void eachTierReadsItsOwnAvailableBytes() {
    MemoryProbes p = probes(Duration.ofSeconds(1));
    MemorySnapshot s = p.refresh();
    assertEquals(s.heap().availableBytes(), s.availableBytes(Tier.HEAP));
    assertEquals(s.direct().availableBytes(), s.availableBytes(Tier.DIRECT));
    assertEquals(1L << 30, s.availableBytes(Tier.NATIVE));
    assertEquals(1L << 30, s.availableBytes(Tier.MAPPED));
    assertEquals(-1, s.availableBytes(Tier.DEVICE));
    assertTrue(s.direct().availableBytes() <= 1L << 30, "direct never above host");
  }

  @Test
  void aProbeThatThrowsReadsAsFailedAndNeverReachesTheCaller() {
    RamProbe broken =
        new RamProbe() {
          @Override
          public HostMemory read() {
            throw new IllegalStateException("boom");
          }

          @Override
          public String name() {
            return "broken";
          }
        };
    VramProbe brokenVram =
        new VramProbe() {
          @Override
          public VramReading read(int device) {
            throw new IllegalStateException("bang");
          }

          @Override
          public String name() {
            return "brokenVram";
          }
        };
    MemoryProbes p =
        new MemoryProbes(
            broken,
            new HeapProbe(),
            new DirectMemoryProbe(),
            brokenVram,
            Duration.ofSeconds(1),
            now::get);
    assertTrue(p.snapshot().host().failed());
    assertTrue(p.snapshot().host().failure().contains("boom"));
    assertTrue(p.snapshot().direct().availableBytes() >= 0, "direct then has no host bound");
    VramReading r = p.vram(0);
    assertEquals(Long.MAX_VALUE, r.usedBytes());
    assertTrue(r.failure().contains("bang"));
    assertTrue(p.refresh().host().failed());
  }

  @Test
  void specsBuildTheirProbes() {
    try (MemoryProbes p =
        MemoryProbes.fromSpecs(
            "fixed:2G", "fixed:5592M/6360465408", MemoryProbes.DEFAULT_INTERVAL, null)) {
      assertEquals(2L << 30, p.snapshot().host().availableBytes());
      assertEquals(5592L << 20, p.vram(0).usedBytes());
      assertEquals(Duration.ofSeconds(1), p.interval());
      assertTrue(p.ramProbe().name().startsWith("fixed"));
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> MemoryProbes.fromSpecs("fixed:2G", "x", Duration.ZERO, null));
    assertThrows(IllegalArgumentException.class, () -> probes(Duration.ofSeconds(-1)));
  }
}
