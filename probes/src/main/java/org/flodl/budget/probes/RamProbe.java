package org.flodl.budget.probes;

/**
 * A source of host-RAM readings ({@code ram_probe}). Implementations never throw: a probe that
 * cannot measure returns a {@link HostMemory#failed() failed} reading with its reason.
 */
public interface RamProbe {
  /** Returns a fresh reading (reads files or beans: not for the hot path). */
  HostMemory read();

  /** Returns the probe's name as {@code ram_probe} spells it: {@code proc}, {@code mxbean}, ... */
  String name();
}
