package org.flodl.budget.probes;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;

/**
 * The {@code direct} tier's probe: the {@code direct} buffer pool's used bytes against the JVM's
 * maximum direct memory, bounded by host RAM (the limit is a JVM cap, not memory that exists). The
 * maximum is read once: {@code -XX:MaxDirectMemorySize} through the HotSpot diagnostic bean, else
 * from the JVM's arguments, else the JDK's default when it is unset, which is {@code
 * Runtime.maxMemory()}.
 */
public final class DirectMemoryProbe {
  private final BufferPoolMXBean pool;
  private final long maxBytes;

  /** Returns a probe of this JVM's direct buffers. */
  public DirectMemoryProbe() {
    BufferPoolMXBean found = null;
    for (BufferPoolMXBean p : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (p.getName().equals("direct")) {
        found = p;
      }
    }
    this.pool = found;
    this.maxBytes = maxDirectMemory();
  }

  /** Returns the JVM's maximum direct memory in bytes. */
  public static long maxDirectMemory() {
    long configured = -1;
    try {
      com.sun.management.HotSpotDiagnosticMXBean hs =
          ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class);
      if (hs != null) {
        configured = Long.parseLong(hs.getVMOption("MaxDirectMemorySize").getValue());
      }
    } catch (Throwable t) { // no HotSpot bean (LinkageError) or no such option: the arguments
      configured = fromArguments();
    }
    // 0 is HotSpot's "unset": the JDK then allows as much direct memory as heap.
    return configured > 0 ? configured : Runtime.getRuntime().maxMemory();
  }

  private static long fromArguments() {
    try {
      RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
      long found = -1;
      for (String arg : rt.getInputArguments()) {
        if (arg.startsWith("-XX:MaxDirectMemorySize=")) {
          found = org.flodl.budget.policy.Sizes.parse(arg.substring(arg.indexOf('=') + 1));
        }
      }
      return found;
    } catch (RuntimeException e) {
      return -1;
    }
  }

  /** Returns the JVM's maximum direct memory this probe uses. */
  public long maxBytes() {
    return maxBytes;
  }

  /**
   * Returns a fresh reading, its available bytes bounded by {@code hostAvailable} when that is
   * known (not negative); never throws.
   */
  public DirectMemory read(long hostAvailable) {
    long used = 0;
    if (pool != null) {
      try {
        used = Math.max(pool.getMemoryUsed(), 0);
      } catch (RuntimeException e) {
        used = 0;
      }
    }
    long available = Math.max(maxBytes - used, 0);
    if (hostAvailable >= 0) {
      available = Math.min(available, hostAvailable);
    }
    return new DirectMemory(used, maxBytes, available);
  }
}
