package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.probes.MemoryProbes;
import org.junit.jupiter.api.Test;

/**
 * The gate's admissions in process, against a fixed host probe (1 MiB available, read once: the
 * probe interval is an hour and the engine's probe thread never starts), on the direct tier: at
 * {@code ram_max_usage=0.5} its budget is 512 KiB, so eight 64 KiB buffers are admitted, the ninth
 * declined, a release makes room for exactly one more, and {@code observe} books the same
 * admissions while every value reaches the cache. The engines here are not installed, so they
 * publish no periodic events into another test's recording, and each test releases what it
 * admitted.
 */
class GateAdmissionTest {
  private static final int KIB64 = 64 << 10;

  private static GateEngine engine(Mode mode) {
    return engine(mode, Duration.ofHours(1));
  }

  /** Returns an engine on the fixed 1 MiB host probe, read every {@code probeInterval}. */
  static GateEngine engine(Mode mode, Duration probeInterval) {
    return new GateEngine(
        EngineSettings.builder()
            .mode(mode)
            .pricerFactory(() -> RetentionPricer.standard(null, null))
            .probeFactory(() -> MemoryProbes.fromSpecs("fixed:1M", "none", probeInterval, null))
            .probeInterval(probeInterval)
            .ramMaxUsage(0.5)
            .heapMaxUsage(0.5)
            .vramMaxUsage(0.9)
            .hostShare(() -> 1.0)
            .build());
  }

  /**
   * Releases every value the engine may still hold, so that none is released later, by collection,
   * while another test of this JVM records (the site's name is this test's own too).
   */
  private static void releaseAll(GateEngine e, int release, List<?> values) {
    for (Object v : values) {
      e.release(release, new Object[] {0}, v);
    }
  }

  private static List<ByteBuffer> buffers(int n) {
    List<ByteBuffer> b = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      b.add(ByteBuffer.allocateDirect(KIB64));
    }
    return b;
  }

  @Test
  void eightOfNineAreAdmittedUnderHalfAMebibyteAndAReleaseMakesRoomForOne() {
    GateEngine e = engine(Mode.ENFORCE);
    int admit = e.bindAdmit("gate-admission-test", false, true, null, null);
    int release = e.bindRelease("gate-admission-test");
    List<ByteBuffer> values = buffers(10);
    for (int i = 0; i < 8; i++) {
      assertSame(values.get(i), e.admitCall(admit, values.get(i)), "admitted as it is: " + i);
    }
    assertEquals(8L * KIB64, e.held().get(Tier.DIRECT));
    assertEquals(512L << 10, e.budgets().get(Tier.DIRECT));
    assertSame(Gate.DECLINED, e.admitCall(admit, values.get(8)), "the ninth is over the budget");
    assertEquals(8L * KIB64, e.held().get(Tier.DIRECT), "a decline books nothing");

    e.release(release, new Object[] {0}, values.get(0));
    assertEquals(7L * KIB64, e.held().get(Tier.DIRECT));
    e.release(release, new Object[] {0}, values.get(0));
    assertEquals(7L * KIB64, e.held().get(Tier.DIRECT), "released exactly once");
    assertSame(values.get(8), e.admitCall(admit, values.get(8)));
    assertSame(Gate.DECLINED, e.admitCall(admit, values.get(9)));
    assertEquals(8L * KIB64, e.held().get(Tier.DIRECT));
    releaseAll(e, release, values);
    assertEquals(0L, e.held().get(Tier.DIRECT), "every admitted byte released exactly once");
  }

  @Test
  void observeBooksWhatEnforceWouldAdmitAndPassesEveryValue() {
    GateEngine e = engine(Mode.OBSERVE);
    int admit = e.bindAdmit("gate-admission-test", false, true, null, null);
    int release = e.bindRelease("gate-admission-test");
    List<ByteBuffer> values = buffers(10);
    for (ByteBuffer v : values) {
      assertSame(v, e.admitCall(admit, v), "observe changes nothing the application sees");
    }
    assertEquals(8L * KIB64, e.held().get(Tier.DIRECT), "only what enforce would have admitted");
    releaseAll(e, release, values);
    assertEquals(0L, e.held().get(Tier.DIRECT));
  }

  @Test
  void aSliceOverTwiceItsSizeInStorageIsCopiedAndChargedItsOwnBytes() {
    GateEngine e = engine(Mode.ENFORCE);
    int admit = e.bindAdmit("gate-admission-test", false, true, null, null);
    int release = e.bindRelease("gate-admission-test");
    ByteBuffer rowGroup = ByteBuffer.allocate(8 * KIB64);
    ByteBuffer slice = rowGroup.slice(KIB64, KIB64);
    Object kept = e.admitCall(admit, slice);
    assertNotSame(slice, kept, "materialized: the cache keeps a copy, not the row group");
    ByteBuffer copy = (ByteBuffer) kept;
    assertEquals(KIB64, copy.remaining());
    assertEquals(KIB64, copy.array().length, "a buffer of its own, not the row group's array");
    long charged = RetentionPricer.standard(null, null).estimate(copy).chargedBytes();
    assertEquals(charged, e.held().get(Tier.HEAP), "charged what the copy holds");
    releaseAll(e, release, List.of(kept));
    assertEquals(0L, e.held().get(Tier.HEAP));
  }
}
