package org.flodl.budget.pricing;

import org.flodl.budget.policy.Saturating;

/**
 * What retaining a heap value costs the heap beyond its charge: under G1 an object of half a region
 * or more is humongous and takes whole regions (measured: a 1 MiB {@code byte[]} at {@code
 * -Xmx256m}, 1 MiB regions, takes 2 MiB: its header tips it over one region). A single array's
 * allocation (a heap buffer's, with its array's header) is rounded up to whole regions; a list or
 * array of such arrays (a batch of 1 MiB rows) element by element, at the mean element's size;
 * anything else costs its charge.
 */
public final class HeapFootprint {
  /** The most an array's header takes (a 64-bit JVM without compressed class pointers). */
  private static final long ARRAY_HEADER_MAX = 24;

  /** This JVM's G1 region as {@link #readRegion} read it (0: not G1); -1 until then. */
  private static volatile long jvmRegion = -1;

  private HeapFootprint() {}

  /**
   * Reads this JVM's region size once ({@link #g1Region}: management beans, never on a decision's
   * path; the engine's probe refresh reads it); later calls do nothing.
   */
  public static void readRegion() {
    if (jvmRegion < 0) {
      jvmRegion = g1Region();
    }
  }

  /**
   * Returns what {@code value}, charged {@code charged} bytes, takes of this JVM's heap: in its
   * regions as {@link #readRegion} read them, or in G1's default region for the heap's maximum
   * until then.
   */
  public static long ofThisHeap(Object value, long charged) {
    long region = jvmRegion;
    if (region < 0) {
      region = ergonomicRegion(Runtime.getRuntime().maxMemory());
    }
    return of(value, charged, region);
  }

  /**
   * Returns the heap that {@code value}, charged {@code charged} bytes, takes in regions of {@code
   * region} bytes (0 or less: not G1, its charge).
   */
  public static long of(Object value, long charged, long region) {
    if (region <= 0 || charged < region / 2) {
      return charged;
    }
    if (value.getClass().isArray() && value.getClass().getComponentType().isPrimitive()) {
      return regions(charged, region); // its whole allocation already
    }
    if (value instanceof java.nio.ByteBuffer) {
      return regions(Saturating.add(charged, ARRAY_HEADER_MAX), region); // payload and header
    }
    int n =
        value instanceof java.util.Collection<?> c
            ? c.size()
            : value instanceof Object[] a ? a.length : 0;
    long mean = n > 0 ? charged / n : 0;
    if (mean < region / 2) {
      return charged;
    }
    long each = regions(mean, region);
    return each > Long.MAX_VALUE / n ? charged : Math.max(charged, each * n);
  }

  private static long regions(long allocation, long region) {
    long regions = (allocation + region - 1) / region;
    return regions > Long.MAX_VALUE / region ? allocation : regions * region;
  }

  /** Returns G1's default region for {@code maxHeap}: maxHeap/2048 as a power of 2, 1..32 MiB. */
  public static long ergonomicRegion(long maxHeap) {
    long region = Long.highestOneBit(Math.max(1, maxHeap / 2048));
    return Math.max(1L << 20, Math.min(32L << 20, region));
  }

  /** Returns this JVM's G1 region size, 0 when the collector is not G1 or it cannot be read. */
  public static long g1Region() {
    try {
      boolean g1 = false;
      for (java.lang.management.GarbageCollectorMXBean gc :
          java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
        g1 |= gc.getName().startsWith("G1 ");
      }
      if (!g1) {
        return 0;
      }
      com.sun.management.HotSpotDiagnosticMXBean hs =
          java.lang.management.ManagementFactory.getPlatformMXBean(
              com.sun.management.HotSpotDiagnosticMXBean.class);
      return Long.parseLong(hs.getVMOption("G1HeapRegionSize").getValue());
    } catch (Throwable t) {
      return 0;
    }
  }
}
