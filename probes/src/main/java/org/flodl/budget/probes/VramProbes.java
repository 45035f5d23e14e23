package org.flodl.budget.probes;

import java.util.List;
import java.util.Locale;
import org.flodl.budget.policy.Sizes;

/**
 * Builds the GPU probe a {@code vram_probe} setting names: {@code auto} (JCuda, then the CUDA
 * runtime through JNA, then NVML through JNA), {@code jcuda}, {@code cuda}, {@code nvml}, {@code
 * none} (always failed: the seed's {@code (MAX, 0)}), or {@code fixed:USED/TOTAL} with sizes such
 * as {@code fixed:5592M/6360465408}. Building never touches a native library; the first read does.
 * The JNA probes use the JNA of the loader given (see {@link JnaLoaders}), or when none is the one
 * {@link JnaLoaders#defaultLoader()} finds: the agent's nested JNA, else the application's.
 */
public final class VramProbes {
  private VramProbes() {}

  /** Returns the probe {@code spec} names, with {@link JnaLoaders#defaultLoader()}'s JNA. */
  public static VramProbe fromSpec(String spec) {
    return fromSpec(spec, null);
  }

  /**
   * Returns the probe {@code spec} names, its JNA probes using the JNA of {@code jnaLoader} (null:
   * {@link JnaLoaders#defaultLoader()}).
   *
   * @throws IllegalArgumentException naming the setting when {@code spec} is not one of the above
   */
  public static VramProbe fromSpec(String spec, ClassLoader jnaLoader) {
    String s = spec == null ? "auto" : spec.trim();
    String lower = s.toLowerCase(Locale.ROOT);
    ClassLoader jna = jnaLoader; // null: JnaLoaders.defaultLoader(), at the first native read
    String visible = System.getenv("CUDA_VISIBLE_DEVICES");
    switch (lower) {
      case "auto":
        return new AutoVramProbe(
            List.of(
                new JCudaVramProbe(),
                new CudaRuntimeVramProbe(jna),
                new NvmlVramProbe(jna, visible)));
      case "jcuda":
        return new JCudaVramProbe();
      case "cuda":
        return new CudaRuntimeVramProbe(jna);
      case "nvml":
        return new NvmlVramProbe(jna, visible);
      case "none":
        return none();
      default:
        break;
    }
    if (lower.startsWith("fixed:")) {
      String[] parts = s.substring("fixed:".length()).split("/");
      if (parts.length == 2) {
        return fixed(Sizes.parse(parts[0]), Sizes.parse(parts[1]));
      }
    }
    throw new IllegalArgumentException(
        "vram_probe must be auto, jcuda, cuda, nvml, none or "
            + "fixed:USED/TOTAL (e.g. fixed:5592M/6360465408), got '"
            + spec
            + "'");
  }

  /**
   * Returns {@code probe}'s reading of device {@code device}; a probe that breaks its contract (it
   * returns nothing or throws) reads as failed.
   */
  public static VramReading read(VramProbe probe, int device) {
    try {
      VramReading r = probe.read(device);
      return r != null ? r : VramReading.failure(probe.name(), "the probe returned nothing");
    } catch (RuntimeException e) {
      return VramReading.failure(probe.name(), "the probe threw " + e);
    }
  }

  /** Returns a probe that reports {@code (usedBytes, totalBytes)} for every device. */
  public static VramProbe fixed(long usedBytes, long totalBytes) {
    VramReading reading = new VramReading(usedBytes, totalBytes, "fixed", null);
    String name = "fixed:" + usedBytes + "/" + totalBytes;
    return new VramProbe() {
      @Override
      public VramReading read(int deviceIndex) {
        return reading;
      }

      @Override
      public String name() {
        return name;
      }
    };
  }

  /** Returns a probe that always fails: no GPU budget, the floor declined. */
  public static VramProbe none() {
    VramReading reading = VramReading.failure("none", "vram_probe=none");
    return new VramProbe() {
      @Override
      public VramReading read(int deviceIndex) {
        return reading;
      }

      @Override
      public String name() {
        return "none";
      }
    };
  }
}
