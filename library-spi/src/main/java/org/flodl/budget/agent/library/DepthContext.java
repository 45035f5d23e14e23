package org.flodl.budget.agent.library;

import java.util.OptionalLong;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * What a {@link DepthAdapter} may ask of the engine: its knobs and mode, its probes read at an
 * epoch's start, the stager's share, a value's logical size as the agent prices it, and where a
 * decision it took is said (its events and its site's last depth). The engine implements it; an
 * adapter sees nothing else of the engine.
 */
public interface DepthContext {
  /** Returns the current value of {@code knob}. */
  double knob(Knob knob);

  /** Returns whether {@code prefetch=auto} (the policy's depth, not only a cap on the request). */
  boolean prefetchAuto();

  /** Returns whether the engine decides and records only ({@code mode=observe}). */
  boolean observing();

  /** Returns whether a cache-admit site is budgeting in this JVM (the ring's 8 slots, not 4). */
  boolean cacheActive();

  /**
   * Returns the probes read now, every tier re-budgeted: an epoch boundary decides on fresh
   * numbers, not the last tick's.
   */
  MemorySnapshot refreshAtEpoch();

  /** Returns device {@code index}'s VRAM reading from the last refresh (failed when unknown). */
  VramReading vram(int index);

  /**
   * Returns the flow quarter of the host-RAM stager split when a {@code role = stager} site splits
   * the budget (what a host prefetch ring may take), empty otherwise.
   */
  OptionalLong stagerStreamBytes();

  /** Returns the logical bytes of {@code value} as the agent prices it, -1 where unpriceable. */
  long logicalBytes(Object value);

  /** Says that the calling thread consumed one batch (the host share's count of the job's work). */
  void consumed();

  /**
   * Says depth decision {@code d}, taken at {@code site} on {@code device} for a call that
   * requested {@code requested}: its events, and the site's last depth as its MBean shows it.
   */
  void decided(String site, String device, int requested, DepthDecision.Decision d);
}
