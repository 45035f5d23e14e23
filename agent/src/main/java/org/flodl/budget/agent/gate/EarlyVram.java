package org.flodl.budget.agent.gate;

import java.util.function.Supplier;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramReading;

/**
 * A device's VRAM read on its own, for a GPU depth decision taken before the probes' first refresh:
 * such a decision needs that reading alone, and waits neither for the host and heap probes (the
 * JVM's management beans, tens of milliseconds at start) nor for the probe thread reading them. The
 * probe is the one the refreshes read (the engine's settings hand both the same), so its native
 * libraries load once; its reads are thread-safe. Never throws: a probe that fails reads as failed.
 */
final class EarlyVram {
  private final Supplier<VramProbe> probe;

  EarlyVram(Supplier<VramProbe> probe) {
    this.probe = probe;
  }

  /** Returns device {@code device}'s reading now. */
  VramReading read(int device) {
    String name = "vram";
    try {
      VramProbe p = probe.get();
      name = p.name();
      VramReading r = p.read(device);
      return r != null ? r : VramReading.failure(name, "the probe returned nothing");
    } catch (RuntimeException | LinkageError e) {
      return VramReading.failure(name, "the probe threw " + e);
    }
  }
}
