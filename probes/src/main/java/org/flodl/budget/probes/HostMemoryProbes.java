package org.flodl.budget.probes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.flodl.budget.policy.Sizes;

/**
 * Builds the host-RAM probe a {@code ram_probe} setting names: {@code auto} (the {@code proc} probe
 * where {@code /proc/meminfo} can be read, else {@code mxbean}), {@code proc}, {@code mxbean}, or
 * {@code fixed:AVAILABLE} with a size such as {@code fixed:2G} (tests, demos, what-if runs).
 */
public final class HostMemoryProbes {
  private HostMemoryProbes() {}

  /**
   * Returns the probe {@code spec} names.
   *
   * @throws IllegalArgumentException naming the setting when {@code spec} is not one of the above
   */
  public static RamProbe fromSpec(String spec) {
    String s = spec == null ? "auto" : spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.equals("auto")) {
      return Files.isReadable(Path.of("/proc/meminfo"))
          ? HostMemoryProbe.system()
          : new MxBeanRamProbe();
    }
    if (lower.equals("proc")) {
      return HostMemoryProbe.system();
    }
    if (lower.equals("mxbean")) {
      return new MxBeanRamProbe();
    }
    if (lower.startsWith("fixed:")) {
      return fixed(Sizes.parse(s.substring("fixed:".length())));
    }
    throw new IllegalArgumentException(
        "ram_probe must be auto, proc, mxbean or fixed:AVAILABLE (e.g. fixed:2G), got '"
            + spec
            + "'");
  }

  /** Returns a probe that always reports {@code availableBytes} free. */
  public static RamProbe fixed(long availableBytes) {
    HostMemory reading = new HostMemory(availableBytes, availableBytes, -1, -1, -1, "fixed", null);
    return new RamProbe() {
      @Override
      public HostMemory read() {
        return reading;
      }

      @Override
      public String name() {
        return "fixed:" + availableBytes;
      }
    };
  }
}
