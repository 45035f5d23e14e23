package org.flodl.budget.pricing;

import java.lang.instrument.Instrumentation;

/**
 * How this JVM lays arrays out on the heap: the array header, the size of a reference and the
 * object alignment, measured once with {@link Instrumentation#getObjectSize} when the agent passed
 * its Instrumentation (exact), else HotSpot's 64-bit defaults (a 16-byte header, 8-byte alignment,
 * 4-byte references below a 30 GiB heap, where oops are compressed). An array's allocation is then
 * arithmetic: no call into the JVM per value priced.
 */
final class Layout {
  final long arrayHeader;
  final long alignment;
  final long referenceBytes;

  private Layout(long arrayHeader, long alignment, long referenceBytes) {
    this.arrayHeader = arrayHeader;
    this.alignment = alignment;
    this.referenceBytes = referenceBytes;
  }

  /** Returns the layout {@code inst} measures, or the defaults when it is null or fails. */
  static Layout of(Instrumentation inst) {
    if (inst != null) {
      try {
        long empty = inst.getObjectSize(new byte[0]);
        int k = 1;
        while (k < 64 && inst.getObjectSize(new byte[k]) == empty) {
          k++;
        }
        long align = inst.getObjectSize(new byte[k]) - empty;
        long header = empty - (k - 1);
        long refs = (inst.getObjectSize(new Object[16]) - inst.getObjectSize(new Object[0])) / 16;
        if (align > 0 && header > 0 && (refs == 4 || refs == 8)) {
          return new Layout(header, align, refs);
        }
      } catch (RuntimeException | LinkageError e) {
        // the defaults below
      }
    }
    boolean compressed = Runtime.getRuntime().maxMemory() < (30L << 30);
    return new Layout(16, 8, compressed ? 4 : 8);
  }

  /** Returns the heap an array of {@code length} elements of {@code elementBytes} takes. */
  long array(long length, long elementBytes) {
    long payload =
        length > 0 && elementBytes > Long.MAX_VALUE / length
            ? Long.MAX_VALUE - arrayHeader - alignment
            : length * elementBytes;
    return align(arrayHeader + Math.max(0, payload));
  }

  /** Returns a reference array's heap. */
  long references(long length) {
    return array(length, referenceBytes);
  }

  long align(long bytes) {
    long a = alignment;
    return bytes > Long.MAX_VALUE - a ? Long.MAX_VALUE : (bytes + a - 1) / a * a;
  }
}
