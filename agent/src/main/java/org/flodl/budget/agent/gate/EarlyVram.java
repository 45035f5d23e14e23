package org.flodl.budget.agent.gate;

import java.util.function.Supplier;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramProbes;
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
    VramProbe p;
    try {
      p = probe.get();
    } catch (RuntimeException | LinkageError e) {
      return VramReading.failure("vram", "the probe threw " + e);
    }
    try {
      return VramProbes.read(p, device); // as a refresh reads it
    } catch (LinkageError e) {
      return VramReading.failure(p.name(), "the probe threw " + e);
    }
  }
}
