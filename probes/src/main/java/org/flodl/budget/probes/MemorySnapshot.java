package org.flodl.budget.probes;

import org.flodl.budget.policy.Tier;

/**
 * What every host-side tier had available at one refresh of the probes; decisions read it instead
 * of files. VRAM is read per device through {@link MemoryProbes#vram(int)}.
 *
 * @param takenAtNanos {@link System#nanoTime()} when the probes were read
 * @param host host RAM, cgroup-bounded
 * @param heap the Java heap
 * @param direct direct buffers, bounded by host RAM
 */
public record MemorySnapshot(
    long takenAtNanos, HostMemory host, HeapMemory heap, DirectMemory direct) {

  /**
   * Returns the bytes available to {@code tier}, -1 when unknown: the heap and direct tiers their
   * own, native and mapped memory the host's; the device tier is not in a snapshot (-1).
   */
  public long availableBytes(Tier tier) {
    return switch (tier) {
      case HEAP -> heap.availableBytes();
      case DIRECT -> direct.availableBytes();
      case NATIVE, MAPPED -> host.availableBytes();
      case DEVICE -> -1;
    };
  }
}
