package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramProbes;
import org.junit.jupiter.api.Test;

/**
 * A GPU depth decision before the probes' first refresh reads its VRAM alone: it waits neither for
 * the host and heap probes nor for a refresh under way, and the refreshes later read the same GPU
 * probe (its native libraries load once).
 */
class EarlyVramTest {
  @Test
  void aGpuDepthDoesNotWaitForTheFirstRefreshAndDecidesAsAfterIt() throws Exception {
    VramProbe fixed = VramProbes.fromSpec("fixed:3G/6360465408");
    AtomicInteger vramAsked = new AtomicInteger();
    AtomicReference<VramProbe> refreshedWith = new AtomicReference<>();
    CountDownLatch refreshMayGo = new CountDownLatch(1);
    CountDownLatch refreshing = new CountDownLatch(1);
    GateEngine e =
        new GateEngine(
            EngineSettings.builder()
                .mode(Mode.ENFORCE)
                .pricerFactory(() -> null)
                .probeFactory(
                    () -> {
                      // A first refresh that takes long: its management beans, say.
                      refreshing.countDown();
                      try {
                        refreshMayGo.await();
                      } catch (InterruptedException x) {
                        Thread.currentThread().interrupt();
                      }
                      refreshedWith.set(fixed);
                      return MemoryProbes.fromSpecs("fixed:1G", fixed, Duration.ofHours(1));
                    })
                .vramProbe(
                    () -> {
                      vramAsked.incrementAndGet();
                      return fixed;
                    })
                .probeInterval(Duration.ofMillis(40)) // the probe thread refreshes 10 ms in
                .build());
    int id = e.bindDepth("pref", "cuda:0", 0, 16384, 0, false, null);
    e.start();
    // The probe thread is in its first refresh, waiting (holding its lock), however long a loaded
    // machine took to get it there.
    assertTrue(refreshing.await(60, TimeUnit.SECONDS), "the probe thread never refreshed");
    // Not a timing claim: a decision that waited for the refresh would wait for ever (the refresh
    // is held until refreshMayGo), so any bound tells the two apart; 20 s holds under any load.
    int early = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> e.depth(id, 8, null));
    assertEquals(1, vramAsked.get(), "the decision read the GPU probe itself");
    refreshMayGo.countDown();
    new AdapterContext(e).refreshAtEpoch();
    assertSame(fixed, refreshedWith.get());
    assertEquals(early, e.depth(id, 8, null), "the same reading decides the same depth");
  }
}
