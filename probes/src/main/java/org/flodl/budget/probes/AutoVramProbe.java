package org.flodl.budget.probes;

import java.util.List;

/**
 * {@code vram_probe=auto}: the first of its probes that reads the device answers (JCuda, then the
 * CUDA runtime, then NVML). A probe whose library did not load is skipped at no cost from then on,
 * so on a machine without a GPU only the first read pays for the lookups; when every probe fails
 * the reading carries each one's reason.
 */
final class AutoVramProbe implements VramProbe {
  private final List<VramProbe> chain;

  AutoVramProbe(List<VramProbe> chain) {
    this.chain = List.copyOf(chain);
  }

  @Override
  public String name() {
    return "auto";
  }

  @Override
  public VramReading read(int deviceIndex) {
    StringBuilder reasons = new StringBuilder();
    for (VramProbe probe : chain) {
      VramReading r;
      try {
        r = probe.read(deviceIndex);
      } catch (RuntimeException e) { // a probe must not throw; keep the chain going if one does
        r = VramReading.failure(probe.name(), Jna.oneLine(e));
      }
      if (!r.failed()) {
        return r;
      }
      if (reasons.length() > 0) {
        reasons.append("; ");
      }
      reasons.append(probe.name()).append(": ").append(r.failure());
    }
    return VramReading.failure("auto", reasons.toString());
  }
}
