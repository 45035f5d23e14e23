package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code proc} probe fed the files of real machines (fixtures under {@code probe/}). */
class HostMemoryProbeTest {

  static Path fixture(String name) {
    try {
      return Path.of(HostMemoryProbeTest.class.getResource("/probe/" + name).toURI());
    } catch (URISyntaxException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aV2ContainerIsBoundByItsLimitLessItsWorkingSet() {
    HostMemory m = HostMemoryProbe.forRoot(fixture("v2-container-limit")).read();
    // memory.max 4 GiB, memory.current 1.5 GiB, inactive_file 384 MiB: working set 1152 MiB.
    long ws = 1_610_612_736L - 402_653_184L;
    assertEquals(58_720_256L * 1024, m.memAvailableBytes(), "MemAvailable in bytes");
    assertEquals(4_294_967_296L, m.cgroupLimitBytes());
    assertEquals(1_610_612_736L, m.cgroupUsageBytes());
    assertEquals(ws, m.cgroupWorkingSetBytes());
    assertEquals(4_294_967_296L - ws, m.availableBytes(), "the container, not the 56 GiB host");
    assertEquals("proc+cgroup-v2", m.source());
    assertNull(m.failure());
  }

  @Test
  void aV2HostWithoutALimitReportsMemAvailableAndItsScopesUsage() {
    HostMemoryProbe probe = HostMemoryProbe.forRoot(fixture("v2-host-nolimit"));
    HostMemory m = probe.read();
    assertEquals(12_345_678L * 1024, m.availableBytes());
    assertEquals(12_345_678L * 1024, m.memAvailableBytes());
    assertEquals(-1, m.cgroupLimitBytes(), "max at every level is no limit");
    assertEquals(734_003_200L, m.cgroupUsageBytes(), "the leaf scope's memory.current");
    assertEquals(734_003_200L - 104_857_600L, m.cgroupWorkingSetBytes());
    assertEquals("proc+cgroup-v2", m.source());
    assertTrue(probe.cgroupDescription().endsWith("session-3.scope"), probe.cgroupDescription());
  }

  @Test
  void aLimitOnAParentSliceBindsTheLeaf() {
    HostMemory m = HostMemoryProbe.forRoot(fixture("v2-slice-limit")).read();
    long ws = 1_887_436_800L - 150_994_944L;
    assertEquals(2_147_483_648L, m.cgroupLimitBytes(), "user-1000.slice's MemoryMax");
    assertEquals(1_887_436_800L, m.cgroupUsageBytes(), "the slice's usage, not the scope's");
    assertEquals(ws, m.cgroupWorkingSetBytes());
    assertEquals(2_147_483_648L - ws, m.availableBytes());
  }

  @Test
  void aV1ContainerIsBoundByLimitInBytesLessItsWorkingSet() {
    HostMemory m = HostMemoryProbe.forRoot(fixture("v1-container")).read();
    // limit 2 GiB, usage 1 GiB, total_inactive_file 256 MiB.
    long ws = 1_073_741_824L - 268_435_456L;
    assertEquals(31_457_280L * 1024, m.memAvailableBytes());
    assertEquals(2_147_483_648L, m.cgroupLimitBytes());
    assertEquals(1_073_741_824L, m.cgroupUsageBytes());
    assertEquals(ws, m.cgroupWorkingSetBytes());
    assertEquals(2_147_483_648L - ws, m.availableBytes());
    assertEquals("proc+cgroup-v1", m.source());
  }

  @Test
  void thisMachinesHybridV1CgroupHasTheKernelsUnlimitedValueAndDoesNotBind() throws IOException {
    Path root = fixture("v1-hybrid-this-machine");
    HostMemory m = HostMemoryProbe.forRoot(root).read();
    long memAvailable = kb(root.resolve("proc/meminfo"), "MemAvailable:") * 1024;
    assertEquals(memAvailable, m.availableBytes());
    assertEquals(-1, m.cgroupLimitBytes(), "9223372036854771712 is no limit");
    assertEquals("proc+cgroup-v1", m.source());
    assertTrue(m.cgroupUsageBytes() > 0, "the leaf's usage is still reported");
    assertTrue(m.cgroupWorkingSetBytes() <= m.cgroupUsageBytes());
  }

  @Test
  void aRootWithNothingToReadFailsWithAReasonAndNeverGuesses(@TempDir Path empty) {
    HostMemory m = HostMemoryProbe.forRoot(empty).read();
    assertTrue(m.failed());
    assertEquals(-1, m.availableBytes());
    assertTrue(m.available().isEmpty(), "the ring then takes its fallback");
    assertNotNull(m.failure());
    assertTrue(m.failure().contains("proc/meminfo"), m.failure());
  }

  @Test
  void aCgroupLimitStillMeasuresWhenMeminfoIsMissing(@TempDir Path root) throws IOException {
    Path cg = Files.createDirectories(root.resolve("sys/fs/cgroup"));
    Files.writeString(cg.resolve("memory.max"), "1073741824\n");
    Files.writeString(cg.resolve("memory.current"), "536870912\n");
    Files.writeString(cg.resolve("memory.stat"), "anon 402653184\ninactive_file 134217728\n");
    HostMemory m = HostMemoryProbe.forRoot(root).read();
    assertEquals(1_073_741_824L - (536_870_912L - 134_217_728L), m.availableBytes());
    assertEquals(-1, m.memAvailableBytes());
    assertEquals("cgroup-v2", m.source());
  }

  @Test
  void theProbeFollowsTheFilesAsTheyChange(@TempDir Path root) throws IOException {
    Path proc = Files.createDirectories(root.resolve("proc"));
    Files.writeString(proc.resolve("meminfo"), "MemTotal: 4000 kB\nMemAvailable:  3000 kB\n");
    HostMemoryProbe probe = HostMemoryProbe.forRoot(root);
    assertEquals(3000L * 1024, probe.read().availableBytes());
    assertEquals("proc", probe.read().source());
    Files.writeString(proc.resolve("meminfo"), "MemTotal: 4000 kB\nMemAvailable:  1000 kB\n");
    assertEquals(1000L * 1024, probe.read().availableBytes());
  }

  @Test
  void thisMachineIsReadThroughProc() throws IOException {
    assumeTrue(Files.isReadable(Path.of("/proc/meminfo")), "no /proc here");
    HostMemory m = HostMemoryProbe.system().read();
    assertNull(m.failure());
    assertTrue(m.source().startsWith("proc"), m.source());
    long memTotal = kb(Path.of("/proc/meminfo"), "MemTotal:") * 1024;
    assertTrue(m.availableBytes() > 0 && m.availableBytes() <= memTotal, m.toString());
  }

  @Test
  void aCgroupPathOutsideTheNamespacesViewFallsBackToTheMountPoint() {
    Path root = fixture("v2-container-limit");
    CgroupMemory.Location loc =
        CgroupMemory.locate(
            root,
            "0::/../../system.slice/x.scope\n",
            "1275 1274 0:30 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup rw,nsdelegate\n");
    assertEquals(CgroupMemory.Version.V2, loc.version());
    assertEquals(java.util.List.of(root.resolve("sys/fs/cgroup")), loc.levels());
  }

  @Test
  void mountinfoEscapesAreDecoded(@TempDir Path root) throws IOException {
    Path mount = Files.createDirectories(root.resolve("cg roup/memory"));
    CgroupMemory.Location loc =
        CgroupMemory.locate(
            root,
            "4:memory:/\n",
            "30 23 0:32 / /cg\\040roup/memory rw,relatime - cgroup cgroup rw,memory\n");
    assertEquals(CgroupMemory.Version.V1, loc.version());
    assertEquals(java.util.List.of(mount), loc.levels());
  }

  @Test
  void fieldParsingNeedsTheWholeKeyAtALineStart() {
    byte[] b = "total_inactive_file 5\ninactive_file 7\ninactive_filex 9\n".getBytes();
    assertEquals(7, HostMemoryProbe.field(b, b.length, "inactive_file"));
    assertEquals(5, HostMemoryProbe.field(b, b.length, "total_inactive_file"));
    assertEquals(-1, HostMemoryProbe.field(b, b.length, "active_file"));
  }

  static long kb(Path meminfo, String key) throws IOException {
    for (String line : Files.readAllLines(meminfo)) {
      if (line.startsWith(key)) {
        return Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]);
      }
    }
    throw new AssertionError(key + " not in " + meminfo);
  }
}
