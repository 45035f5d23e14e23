package org.flodl.budget.probes;

import java.util.OptionalLong;

/**
 * One reading of host RAM as a training JVM may use it: {@code MemAvailable}, bounded by the memory
 * cgroup the JVM runs in. A probe that could read nothing reports {@code availableBytes = -1} and
 * its reason in {@code failure}; it never guesses (the reader ring then takes its fallback of 4).
 *
 * @param availableBytes the smaller of {@code memAvailableBytes} and the cgroup's headroom ({@code
 *     limit − working set}); -1 when unknown
 * @param memAvailableBytes {@code MemAvailable} from {@code /proc/meminfo} (or the JDK's free
 *     memory for the {@code mxbean} probe); -1 when unknown
 * @param cgroupLimitBytes the binding cgroup's memory limit; -1 when there is none
 * @param cgroupUsageBytes that cgroup's usage ({@code memory.current} or {@code
 *     memory.usage_in_bytes}); -1 when unknown
 * @param cgroupWorkingSetBytes usage less inactive file pages; -1 when unknown
 * @param source where the numbers came from: {@code proc}, {@code proc+cgroup-v2}, {@code
 *     proc+cgroup-v1}, {@code mxbean}, {@code fixed}, or {@code none}
 * @param failure why nothing could be read, {@code null} when the reading is good
 * @param cgroupPath the cgroup whose limit binds (its folder, as read), null when none does
 */
public record HostMemory(
    long availableBytes,
    long memAvailableBytes,
    long cgroupLimitBytes,
    long cgroupUsageBytes,
    long cgroupWorkingSetBytes,
    String source,
    String failure,
    String cgroupPath) {

  /** Returns a reading with no binding cgroup named. */
  public HostMemory(
      long availableBytes,
      long memAvailableBytes,
      long cgroupLimitBytes,
      long cgroupUsageBytes,
      long cgroupWorkingSetBytes,
      String source,
      String failure) {
    this(
        availableBytes,
        memAvailableBytes,
        cgroupLimitBytes,
        cgroupUsageBytes,
        cgroupWorkingSetBytes,
        source,
        failure,
        null);
  }

  /**
   * Returns the memory this process draws on: {@code cgroup:PATH} of the cgroup whose limit binds,
   * or {@code host}. Ranks of one job divide a budget only when they share it.
   */
  public String domain() {
    return cgroupPath == null ? "host" : "cgroup:" + cgroupPath;
  }

  /** Returns a reading that measured nothing, with its reason. */
  public static HostMemory failure(String source, String reason) {
    return new HostMemory(-1, -1, -1, -1, -1, source, reason);
  }

  /** Returns whether the probe could not measure host RAM. */
  public boolean failed() {
    return availableBytes < 0;
  }

  /** Returns the available bytes, or empty when unknown (what {@code ringSlotsFromRam} takes). */
  public OptionalLong available() {
    return availableBytes < 0 ? OptionalLong.empty() : OptionalLong.of(availableBytes);
  }
}
