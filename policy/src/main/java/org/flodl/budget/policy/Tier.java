package org.flodl.budget.policy;

import java.util.Locale;

/** The kinds of memory a JVM's pipeline retains, each with its own budget. */
public enum Tier {
  /** byte[], heap buffers, Java objects: max heap − live heap after the last GC. */
  HEAP,
  /** Direct ByteBuffers: bounded by MaxDirectMemorySize and by host RAM. */
  DIRECT,
  /** Off-heap memory the JVM does not count (DJL NDArrays on a CPU): host RAM. */
  NATIVE,
  /** File-backed mapped buffers: priced by logical bytes, never copied. */
  MAPPED,
  /** Tensors on a GPU: VRAM. */
  DEVICE;

  /** Returns the name events and arguments use: {@code heap}, {@code direct}, … */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
