package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The heap and direct tiers' probes, in child JVMs with the limits a training run would set. */
class HeapAndDirectProbeTest {
  private static final long MIB = 1 << 20;

  @ParameterizedTest
  @ValueSource(strings = {"-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseZGC"})
  void aSmallHeapsBudgetShrinksWithACacheAndGrowsBackAfterItIsDroppedAndCollected(String gc)
      throws Exception {
    Map<String, String> v =
        ChildJvm.run(
            ChildJvm.testClassPath(),
            List.of("-Xmx256m", "-Xms256m", gc),
            ProbeChildMain.class,
            "heap");
    String out = v.get("_output");
    long max = Long.parseLong(v.get("baseline.max"));
    assertTrue(max <= 256 * MIB, out);
    long baseline = Long.parseLong(v.get("baseline.available"));
    long cached = Long.parseLong(v.get("cached.available"));
    long dropped = Long.parseLong(v.get("dropped.available"));
    for (String label : List.of("baseline", "cached", "dropped")) {
      assertEquals("true", v.get(label + ".afterGc"), label + "\n" + out);
      assertTrue(Long.parseLong(v.get(label + ".budget")) < 256 * MIB, label + "\n" + out);
    }
    assertTrue(baseline < 256 * MIB && baseline > 200 * MIB, "little is live at start\n" + out);
    // The 96 MiB cache is live after the GC: the tier lost at least that much.
    assertTrue(cached <= baseline - 90 * MIB, out);
    // Dropped and collected: the budget grows back to within a few MiB of the baseline.
    assertTrue(dropped >= cached + 90 * MIB, out);
    assertTrue(Long.parseLong(v.get("dropped.budget")) > Long.parseLong(v.get("cached.budget")));
    if (v.get("start.collections").equals("0")) {
      assertEquals("false", v.get("start.afterGc"), "before any GC: current usage\n" + out);
      assertEquals(v.get("start.used"), v.get("start.live"), out);
    }
  }

  @Test
  void liveAfterGcIgnoresGarbageThatCurrentUsageCounts() {
    HeapProbe probe = new HeapProbe();
    System.gc();
    HeapMemory clean = probe.read();
    assertTrue(clean.afterGc());
    // Make garbage without a collection being likely to finish in between: 8 MiB of it.
    byte[][] junk = new byte[128][];
    for (int i = 0; i < junk.length; i++) {
      junk[i] = new byte[64 << 10];
    }
    junk = null;
    HeapMemory dirty = probe.read();
    if (dirty.liveBytes() == clean.liveBytes()) { // no GC ran between the two reads
      assertTrue(dirty.usedBytes() >= dirty.liveBytes(), dirty.toString());
      assertEquals(dirty.maxBytes() - dirty.liveBytes(), dirty.availableBytes());
    }
    assertEquals(Runtime.getRuntime().maxMemory(), dirty.maxBytes());
  }

  @Test
  void aSmallMaxDirectMemoryBoundsTheDirectTier() throws Exception {
    Map<String, String> v =
        ChildJvm.run(
            ChildJvm.testClassPath(),
            List.of("-XX:MaxDirectMemorySize=64m"),
            ProbeChildMain.class,
            "direct");
    String out = v.get("_output");
    assertEquals(64 * MIB, Long.parseLong(v.get("direct.max")), out);
    long used = Long.parseLong(v.get("after.used"));
    assertTrue(used >= 16 * MIB, out);
    assertTrue(used >= Long.parseLong(v.get("before.used")) + 16 * MIB, out);
    assertEquals(64 * MIB - used, Long.parseLong(v.get("after.available")), out);
    assertTrue(Long.parseLong(v.get("after.available")) < 64 * MIB, out);
    assertTrue(Long.parseLong(v.get("after.budget")) < 64 * MIB, out);
    assertEquals(
        8 * MIB, Long.parseLong(v.get("tightHost.available")), "never more than host\n" + out);
  }

  @Test
  void theProbesWorkWithoutJnaOnTheClassPath() throws Exception {
    String classPath =
        String.join(
            java.io.File.pathSeparator,
            java.nio.file.Path.of("target", "classes").toAbsolutePath().toString(),
            java.nio.file.Path.of("target", "test-classes").toAbsolutePath().toString());
    Map<String, String> v = ChildJvm.run(classPath, List.of(), ProbeChildMain.class, "nojna");
    String out = v.get("_output");
    assertEquals("false", v.get("jna.visible"), out);
    assertTrue(Long.parseLong(v.get("heap.available")) > 0, out);
    assertEquals(Long.toString(Long.MAX_VALUE), v.get("vram.used"), out);
    assertEquals("0", v.get("vram.total"), out);
    // Without JNA the JNA probes say why they cannot work: no driver here, or no JNA.
    String failure = v.get("vram.failure");
    assertTrue(failure.contains("jcuda: no JCuda on the class path; cuda: no "), out);
    assertTrue(failure.contains("; nvml: no "), out);
    assertFalse(failure.contains("Exception"), out);
  }

  @Test
  void withoutMaxDirectMemorySizeTheJdkDefaultIsTheMaxHeap() {
    boolean set =
        java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
            .anyMatch(a -> a.startsWith("-XX:MaxDirectMemorySize"));
    if (!set) {
      assertEquals(Runtime.getRuntime().maxMemory(), DirectMemoryProbe.maxDirectMemory());
    }
    DirectMemoryProbe probe = new DirectMemoryProbe();
    long before = probe.read(-1).usedBytes();
    ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
    DirectMemory after = probe.read(-1);
    assertTrue(after.usedBytes() >= before + b.capacity(), after.toString());
    assertFalse(after.availableBytes() > after.maxBytes());
    assertEquals(0, probe.read(0).availableBytes(), "a host with nothing free bounds it to 0");
  }
}
