package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The {@code ram_probe} settings. */
class HostMemoryProbesTest {

  @Test
  void fixedReportsItsSize() {
    HostMemory m = HostMemoryProbes.fromSpec("fixed:2G").read();
    assertEquals(2L << 30, m.availableBytes());
    assertEquals("fixed", m.source());
    assertNull(m.failure());
  }

  @Test
  void autoIsProcWhereProcExists() {
    assumeTrue(Files.isReadable(Path.of("/proc/meminfo")), "no /proc here");
    assertEquals("proc", HostMemoryProbes.fromSpec("auto").name());
    assertEquals("proc", HostMemoryProbes.fromSpec("proc").name());
  }

  @Test
  void theMxBeanProbeReadsTheJdksFreeMemory() {
    RamProbe p = HostMemoryProbes.fromSpec("mxbean");
    assertEquals("mxbean", p.name());
    HostMemory m = p.read();
    assertNull(m.failure());
    assertEquals("mxbean", m.source());
    // The JDK's free memory is MemFree (or the container's limit less usage): never more than
    // the machine has.
    long memTotal =
        ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    assertTrue(m.availableBytes() > 0 && m.availableBytes() <= memTotal, m.toString());
  }

  @Test
  void badSpecsAreRejectedNamingTheSetting() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> HostMemoryProbes.fromSpec("meminfo"));
    assertTrue(e.getMessage().contains("ram_probe"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> HostMemoryProbes.fromSpec("fixed:lots"));
  }
}
