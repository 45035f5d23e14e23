package org.flodl.budget.agent.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;

/**
 * Copies of memory segments made the JDK's way, for a view the seed's rule copies (a slice that
 * pins over twice what it addresses): a heap segment into a new array of its own element type (so
 * its aligned accesses still hold), which the collector frees; a native segment of an automatic
 * arena into memory of a new automatic arena, at the alignment its address had (up to a page),
 * which the JDK reserves against {@code MaxDirectMemorySize} as it did the original's and frees
 * when the copy is unreachable. A read-only segment's copy is read-only. Reached through method
 * handles: the unit compiles for Java 17.
 */
final class SegmentCopies {
  /** The largest alignment a native copy keeps of its original's address. */
  private static final long MOST_ALIGNMENT = 4096;

  /** The longest array a heap copy makes (the JDK's own ceiling, with its headroom). */
  private static final long MOST_ELEMENTS = Integer.MAX_VALUE - 8;

  private final Class<?> segment;
  private final MethodHandle ofAuto;
  private final MethodHandle allocate;
  private final MethodHandle copyFrom;
  private final MethodHandle isReadOnly;
  private final MethodHandle asReadOnly;
  private final MethodHandle address;

  /** {@code MemorySegment.ofArray} for each primitive array type, found once. */
  private final ClassValue<MethodHandle> ofArray =
      new ClassValue<MethodHandle>() {
        @Override
        protected MethodHandle computeValue(Class<?> array) {
          try {
            return MethodHandles.publicLookup()
                .findStatic(segment, "ofArray", MethodType.methodType(segment, array));
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no MemorySegment.ofArray for " + array, e);
          }
        }
      };

  private SegmentCopies(Class<?> segment) throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    Class<?> arena = Class.forName("java.lang.foreign.Arena", false, segment.getClassLoader());
    Class<?> allocator =
        Class.forName("java.lang.foreign.SegmentAllocator", false, segment.getClassLoader());
    this.segment = segment;
    this.ofAuto = l.findStatic(arena, "ofAuto", MethodType.methodType(arena));
    this.allocate =
        l.findVirtual(
            allocator, "allocate", MethodType.methodType(segment, long.class, long.class));
    this.copyFrom = l.findVirtual(segment, "copyFrom", MethodType.methodType(segment, segment));
    this.isReadOnly = l.findVirtual(segment, "isReadOnly", MethodType.methodType(boolean.class));
    this.asReadOnly = l.findVirtual(segment, "asReadOnly", MethodType.methodType(segment));
    this.address = l.findVirtual(segment, "address", MethodType.methodType(long.class));
  }

  /** Returns the copier of {@code segment}'s type (the JDK's {@code MemorySegment}), or null. */
  static SegmentCopies of(Class<?> segment) {
    try {
      return new SegmentCopies(segment);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /**
   * Returns the bytes a heap copy of {@code size} bytes over array {@code base} takes (its array,
   * with the largest header a JVM gives one), or -1 where no array of {@code base}'s element type
   * holds exactly {@code size} bytes.
   */
  static long heapCopyBytes(Object base, long size) {
    int element = elementBytes(base.getClass().getComponentType());
    if (element <= 0 || size % element != 0 || size / element > MOST_ELEMENTS) {
      return -1;
    }
    return size + 24;
  }

  /**
   * Returns a heap copy of {@code segment}, of {@code size} bytes over an array like {@code base}.
   */
  Object heap(Object segment, Object base, long size) throws Throwable {
    Class<?> component = base.getClass().getComponentType();
    Object array = Array.newInstance(component, (int) (size / elementBytes(component)));
    return filled(segment, ofArray.get(array.getClass()).invoke(array));
  }

  /** Returns a copy of native {@code segment}, of {@code size} bytes, in a new automatic arena. */
  Object automatic(Object segment, long size) throws Throwable {
    long alignment = alignmentOf((long) address.invoke(segment));
    return filled(segment, allocate.invoke(ofAuto.invoke(), size, alignment));
  }

  /** Returns the alignment a copy of a segment at {@code address} keeps: its own, to a page. */
  static long alignmentOf(long address) {
    return address == 0 ? 1 : Math.min(Long.lowestOneBit(address), MOST_ALIGNMENT);
  }

  /**
   * Returns the bytes a native copy of {@code size} bytes of a segment at {@code address} reserves:
   * its size, and the slack the JDK adds for an alignment past what {@code malloc} gives (16).
   */
  static long nativeCopyBytes(long size, long address) {
    long alignment = alignmentOf(address);
    return alignment > 16 ? size + alignment - 1 : size;
  }

  private Object filled(Object original, Object copy) throws Throwable {
    copyFrom.invoke(copy, original);
    return (boolean) isReadOnly.invoke(original) ? asReadOnly.invoke(copy) : copy;
  }

  private static int elementBytes(Class<?> c) {
    if (c == byte.class) {
      return 1;
    }
    if (c == char.class || c == short.class) {
      return 2;
    }
    if (c == int.class || c == float.class) {
      return 4;
    }
    return c == long.class || c == double.class ? 8 : -1;
  }
}
