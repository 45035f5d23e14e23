package org.flodl.budget.probes;

/**
 * One GPU memory reading as the seed's probe reports it: used first, then total, driver-level
 * ({@code total − free} from {@code cudaMemGetInfo}, counting everything the caching allocator has
 * reserved). A failed reading is the seed's {@code (Long.MAX_VALUE, 0)} with its reason, which
 * {@code depthFromProbe} turns into a declined floor.
 *
 * @param usedBytes bytes in use on the device ({@link Long#MAX_VALUE} when the probe failed)
 * @param totalBytes the device's total bytes (0 when the probe failed)
 * @param probe the probe that answered ({@code jcuda}, {@code cuda}, {@code nvml}, {@code fixed},
 *     or the one that failed)
 * @param failure why the probe failed, {@code null} when the reading is good
 */
public record VramReading(long usedBytes, long totalBytes, String probe, String failure) {

  /** Returns the seed's failed reading, {@code (Long.MAX_VALUE, 0)}, with its reason. */
  public static VramReading failure(String probe, String reason) {
    return new VramReading(Long.MAX_VALUE, 0, probe, reason);
  }

  /** Returns a good reading from a probe's free and total bytes. */
  static VramReading fromFree(long freeBytes, long totalBytes, String probe) {
    long free = Math.min(Math.max(freeBytes, 0), Math.max(totalBytes, 0));
    return new VramReading(Math.max(totalBytes, 0) - free, Math.max(totalBytes, 0), probe, null);
  }

  /** Returns whether the probe failed. */
  public boolean failed() {
    return failure != null;
  }
}
