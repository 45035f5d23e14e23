package org.flodl.budget.probes;

/**
 * A source of GPU memory readings ({@code vram_probe}). Implementations never throw: a probe that
 * cannot read a device returns {@link VramReading#failure} with its reason.
 */
public interface VramProbe {
  /** Returns a fresh reading of CUDA device {@code deviceIndex} (a native call: not hot path). */
  VramReading read(int deviceIndex);

  /** Returns the probe's name as {@code vram_probe} spells it: {@code auto}, {@code nvml}, ... */
  String name();
}
