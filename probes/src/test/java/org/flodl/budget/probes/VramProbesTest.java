package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.PrefetchDepth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** GPU probes: specs, the seed's rig numbers end to end, and clean failure on a GPU-less host. */
class VramProbesTest {
  private static final long PASCAL_USED = 5592L << 20;
  private static final long PASCAL_TOTAL = 6_360_465_408L;
  private static final long OLMO_ACTIVATION_PEAK = 1682L << 20;

  @Test
  void aFixedProbeReproducesTheSeedsRigEndToEnd() {
    VramProbe probe = VramProbes.fromSpec("fixed:5592M/6360465408");
    VramReading r = probe.read(0);
    assertEquals(new VramReading(PASCAL_USED, PASCAL_TOTAL, "fixed", null), r);
    // OLMo batch: seq 256 x batch 4, 2 int64 tensors = 16 KiB, i.e. 4 KiB a sample.
    PrefetchDepth d =
        BudgetPolicy.prefetchDepthFromVram(4096, 4, true, r.usedBytes(), r.totalBytes(), 0.90, 0);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, d.depth());
    assertEquals(PrefetchDepth.Reason.DOUBLE_BUFFER_FLOOR, d.reason());
    PrefetchDepth withPeak =
        BudgetPolicy.prefetchDepthFromVram(
            4096, 4, true, r.usedBytes(), r.totalBytes(), 0.90, OLMO_ACTIVATION_PEAK);
    assertEquals(BudgetPolicy.DOUBLE_BUFFER, withPeak.depth());
    long fatBatch = (PASCAL_TOTAL - PASCAL_USED) / 4;
    PrefetchDepth fat =
        BudgetPolicy.prefetchDepthFromVram(
            fatBatch, 1, true, r.usedBytes(), r.totalBytes(), 0.90, 0);
    assertEquals(0, fat.depth());
    assertEquals(PrefetchDepth.Reason.SYNC_FALLBACK, fat.reason());
  }

  @Test
  void aFixedProbeWithRoomGivesCapacityDepth() {
    VramReading r = VramProbes.fromSpec("fixed:3G/6360465408").read(1);
    PrefetchDepth d =
        BudgetPolicy.prefetchDepthFromVram(4096, 4, true, r.usedBytes(), r.totalBytes(), 0.90, 0);
    assertEquals(PrefetchDepth.Reason.CAPACITY, d.reason());
    assertTrue(d.depth() > 100_000, d.toString());
  }

  @Test
  void noneIsTheSeedsFailedProbeAndDeclinesTheFloor() {
    VramReading r = VramProbes.fromSpec("none").read(0);
    assertTrue(r.failed());
    assertEquals(Long.MAX_VALUE, r.usedBytes());
    assertEquals(0, r.totalBytes());
    PrefetchDepth d =
        BudgetPolicy.prefetchDepthFromVram(4096, 4, true, r.usedBytes(), r.totalBytes(), 0.90, 0);
    assertEquals(0, d.depth());
    assertEquals(PrefetchDepth.Reason.PROBE_FAILED, d.reason());
  }

  @Test
  void badSpecsAreRejectedNamingTheSetting() {
    for (String bad : new String[] {"gpu", "fixed:1G", "fixed:a/b", "fixed:1G/2G/3G", ""}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> VramProbes.fromSpec(bad), bad);
      assertTrue(
          e.getMessage().contains("vram_probe") || e.getMessage().contains("size"), e.getMessage());
    }
    assertEquals("auto", VramProbes.fromSpec(" AUTO ").name());
    assertEquals("nvml", VramProbes.fromSpec("nvml").name());
  }

  @Test
  void onThisMachineAutoFailsFastWithEachProbesReason() {
    assumeTrue(noGpuDriverOnLinux(), "not a Linux machine without a GPU driver");
    VramProbe auto = VramProbes.fromSpec("auto");
    long t0 = System.nanoTime();
    VramReading r = auto.read(0);
    long firstMs = (System.nanoTime() - t0) / 1_000_000;
    System.out.println("[probe] vram_probe=auto failed in " + firstMs + " ms: " + r.failure());
    assertTrue(r.failed());
    assertEquals(Long.MAX_VALUE, r.usedBytes());
    assertEquals(0, r.totalBytes());
    assertEquals("auto", r.probe());
    assertTrue(r.failure().contains("jcuda: no JCuda on the class path"), r.failure());
    assertTrue(r.failure().contains("; cuda: no NVIDIA driver (no /dev/nvidiactl"), r.failure());
    assertTrue(r.failure().contains("; nvml: no NVIDIA driver (no /dev/nvidiactl"), r.failure());
    // Fast by what it did, not by this machine's clock: each probe stopped at the missing device
    // file above, before loading a native library (the time is printed, not asserted).
    VramReading again = auto.read(0);
    assertEquals(r.failure(), again.failure(), "a missing library is not looked up again");
  }

  @Test
  void throughJnaTheCudaProbeLooksForTheDriverBeforeTouchingTheRuntime() {
    assumeTrue(noGpuDriverOnLinux(), "not a Linux machine without a GPU driver");
    // Past the pure-Java driver check: JNA loads, finds libcudart here but no libcuda.
    long t0 = System.nanoTime();
    VramReading r = new CudaRuntimeVramProbe(JnaLoaders.application(), false).read(0);
    VramReading n = new NvmlVramProbe(JnaLoaders.application(), null, false).read(0);
    System.out.println(
        "[probe] cuda and nvml through JNA failed in "
            + (System.nanoTime() - t0) / 1_000_000
            + " ms");
    assertTrue(r.failed());
    assertEquals("cuda", r.probe());
    assertEquals("no CUDA driver: libcuda.so.1, cuda not found", r.failure());
    assertEquals("nvml", n.probe());
    assertEquals("libnvidia-ml.so.1, nvidia-ml not found", n.failure());
  }

  /** Returns whether this is Linux with no NVIDIA driver (device node or libcuda) to be found. */
  static boolean noGpuDriverOnLinux() {
    if (!System.getProperty("os.name").equals("Linux")) {
      return false;
    }
    for (String p :
        new String[] {
          "/dev/nvidiactl",
          "/usr/lib/x86_64-linux-gnu/libcuda.so.1",
          "/usr/lib64/libcuda.so.1",
          "/usr/lib/aarch64-linux-gnu/libcuda.so.1",
          "/usr/lib/wsl/lib/libcuda.so.1",
          "/usr/local/nvidia/lib64/libcuda.so.1"
        }) {
      if (Files.exists(Path.of(p))) {
        return false;
      }
    }
    return true;
  }

  @Test
  void withoutJnaTheJnaProbesSaySo() {
    ClassLoader noJna = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader());
    for (VramProbe p :
        new VramProbe[] {
          new CudaRuntimeVramProbe(noJna, false), new NvmlVramProbe(noJna, null, false)
        }) {
      VramReading r = p.read(0);
      assertTrue(r.failed());
      assertEquals("no JNA on the class path (the agent ships one)", r.failure());
    }
    assertNull(JnaLoaders.version(noJna));
  }

  @Test
  void theDriverCheckFindsNodesModulesAndLibraries(@TempDir Path root) throws Exception {
    String none = NvidiaDriver.absence("Linux", root, null);
    assertTrue(none.startsWith("no NVIDIA driver"), none);
    assertNull(NvidiaDriver.absence("Mac OS X", root, null), "elsewhere it says nothing");
    Path lib = Files.createDirectories(root.resolve("opt/nv/lib"));
    Files.createFile(lib.resolve("libnvidia-ml.so.1"));
    assertNotNull(NvidiaDriver.absence("Linux", root, null), "not on any library path yet");
    assertNull(NvidiaDriver.absence("Linux", root, "/opt/nv/lib"), "LD_LIBRARY_PATH");
    Files.createDirectories(root.resolve("etc/ld.so.conf.d"));
    Files.writeString(root.resolve("etc/ld.so.conf"), "include /etc/ld.so.conf.d/*.conf\n");
    Files.writeString(root.resolve("etc/ld.so.conf.d/nvidia.conf"), "# driver\n/opt/nv/lib\n");
    assertNull(NvidiaDriver.absence("Linux", root, null), "ld.so.conf include");
    Path other = Files.createDirectories(root.resolve("other"));
    Files.createDirectories(other.resolve("dev"));
    Files.createFile(other.resolve("dev/nvidiactl"));
    assertNull(NvidiaDriver.absence("Linux", other, null), "a device node");
    Path wsl = Files.createDirectories(root.resolve("wsl/usr/lib/wsl/lib"));
    Files.createFile(wsl.resolve("libcuda.so.1"));
    assertNull(NvidiaDriver.absence("Linux", root.resolve("wsl"), null), "WSL's libcuda");
  }

  @Test
  void ldSoConfIncludesMatchTheirWildcards() {
    assertTrue(NvidiaDriver.wildcard("*.conf", "nvidia.conf", 0, 0));
    assertTrue(NvidiaDriver.wildcard("*.conf", ".conf", 0, 0));
    assertTrue(NvidiaDriver.wildcard("x86_64-linux-gnu.conf", "x86_64-linux-gnu.conf", 0, 0));
    assertTrue(NvidiaDriver.wildcard("lib?.conf", "lib3.conf", 0, 0));
    assertTrue(NvidiaDriver.wildcard("*", "anything", 0, 0));
    assertFalse(NvidiaDriver.wildcard("*.conf", "nvidia.conf.bak", 0, 0));
    assertFalse(NvidiaDriver.wildcard("*.conf", "nvidia.cfg", 0, 0));
    assertFalse(NvidiaDriver.wildcard("lib?.conf", "lib.conf", 0, 0));
    assertFalse(NvidiaDriver.wildcard("a*b*c", "abxxbd", 0, 0));
  }

  @Test
  void cudaDeviceIndicesMapThroughCudaVisibleDevices() {
    assertEquals("1", NvmlVramProbe.nvmlDevice(1, null));
    assertEquals("3", NvmlVramProbe.nvmlDevice(1, "2,3"));
    assertEquals("GPU-5f1e", NvmlVramProbe.nvmlDevice(0, "GPU-5f1e, GPU-77aa"));
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> NvmlVramProbe.nvmlDevice(2, "0,1"));
    assertTrue(e.getMessage().contains("not visible"), e.getMessage());
    assertThrows(IllegalStateException.class, () -> NvmlVramProbe.nvmlDevice(0, "-1"));
  }

  @Test
  void aFailedReadingIsTheSeedsSentinel() {
    VramReading f = VramReading.failure("nvml", "why");
    assertEquals(new VramReading(Long.MAX_VALUE, 0, "nvml", "why"), f);
    assertFalse(new VramReading(1, 2, "fixed", null).failed());
    assertEquals(new VramReading(6, 10, "x", null), VramReading.fromFree(4, 10, "x"));
  }
}
