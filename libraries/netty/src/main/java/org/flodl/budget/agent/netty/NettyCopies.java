package org.flodl.budget.agent.netty;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The seed's view rule on Netty's buffers, made Netty's way: a derived buffer (a slice or
 * duplicate, retained or not, leak-aware or not) whose owner's slot is over twice its capacity is
 * copied into a buffer of its own allocator ({@code alloc()}), direct where it is direct, of its
 * capacity and maximum capacity, its bytes and its reader and writer indexes; under a leak detector
 * the copy is tracked as any buffer of that allocator is. A copy is charged its capacity rounded up
 * to a power of two, what a pooled allocator's size classes reserve at most.
 */
final class NettyCopies {
  private final MethodHandle alloc; // buf -> ByteBufAllocator
  private final MethodHandle directBuffer; // (allocator, int, int) -> ByteBuf
  private final MethodHandle heapBuffer; // (allocator, int, int) -> ByteBuf
  private final MethodHandle setBytes; // (dst, int, src, int, int) -> ByteBuf
  private final MethodHandle readerIndex;
  private final MethodHandle writerIndex;
  private final MethodHandle maxCapacity;
  private final MethodHandle setIndex; // (buf, int, int) -> ByteBuf
  private final MethodHandle release; // buf -> boolean

  private NettyCopies(Class<?> buf) throws ReflectiveOperationException {
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    Class<?> allocator = Class.forName(NettyPricing.ALLOCATOR, false, buf.getClassLoader());
    // called with invoke, which adapts the call's types to Netty's
    alloc = l.unreflect(buf.getMethod("alloc"));
    directBuffer = l.unreflect(allocator.getMethod("directBuffer", int.class, int.class));
    heapBuffer = l.unreflect(allocator.getMethod("heapBuffer", int.class, int.class));
    setBytes = l.unreflect(buf.getMethod("setBytes", int.class, buf, int.class, int.class));
    readerIndex = l.unreflect(buf.getMethod("readerIndex"));
    writerIndex = l.unreflect(buf.getMethod("writerIndex"));
    maxCapacity = l.unreflect(buf.getMethod("maxCapacity"));
    setIndex = l.unreflect(buf.getMethod("setIndex", int.class, int.class));
    release = l.unreflect(buf.getMethod("release"));
  }

  /** Returns the copies of the Netty whose {@code ByteBuf} is {@code buf}, or null. */
  static NettyCopies of(Class<?> buf) {
    try {
      return new NettyCopies(buf);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  /** Returns what a copy of {@code capacity} bytes is charged: the capacity, a power of two. */
  static long copyBytes(long capacity) {
    return capacity <= 1 ? capacity : Long.highestOneBit(capacity - 1) << 1;
  }

  /** Returns a copy of {@code b}, of {@code capacity} bytes, from its own allocator. */
  Object copy(Object b, int capacity, boolean direct) throws Throwable {
    Object allocator = alloc.invoke(b);
    int max = Math.max(capacity, (int) maxCapacity.invoke(b));
    Object copy =
        direct
            ? directBuffer.invoke(allocator, capacity, max)
            : heapBuffer.invoke(allocator, capacity, max);
    try {
      setBytes.invoke(copy, 0, b, 0, capacity);
      setIndex.invoke(copy, (int) readerIndex.invoke(b), (int) writerIndex.invoke(b));
      return copy;
    } catch (Throwable t) {
      boolean unused = (boolean) release.invoke(copy);
      throw t;
    }
  }
}
