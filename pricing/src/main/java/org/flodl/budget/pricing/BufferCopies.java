package org.flodl.budget.pricing;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * Materializes a buffer view into storage of its own: the same kind (heap or direct), element type
 * and byte order, exactly the elements it addresses (index 0 to its capacity), the same position
 * and limit, read-only when the view was. Every absolute and relative read of the copy returns what
 * the view returned; the copy shares nothing with the view's owner. A mark is not carried over
 * ({@link Buffer} does not show it): {@code reset()} on the copy throws {@link
 * java.nio.InvalidMarkException}.
 */
final class BufferCopies {
  private BufferCopies() {}

  /** Returns the copy of {@code view}; throws OutOfMemoryError when its memory cannot be had. */
  static Buffer copy(Buffer view, BufferType type) {
    int capacity = view.capacity();
    boolean direct = view.isDirect();
    Buffer copy;
    switch (type) {
      case BYTE:
        {
          ByteBuffer from = ((ByteBuffer) view).duplicate().clear();
          ByteBuffer to =
              direct ? ByteBuffer.allocateDirect(capacity) : ByteBuffer.allocate(capacity);
          copy = to.put(from);
          break;
        }
      case CHAR:
        {
          CharBuffer from = ((CharBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? CharBuffer.allocate(capacity).put(from)
                  : bytes(view, 2).asCharBuffer().put(from);
          break;
        }
      case SHORT:
        {
          ShortBuffer from = ((ShortBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? ShortBuffer.allocate(capacity).put(from)
                  : bytes(view, 2).asShortBuffer().put(from);
          break;
        }
      case INT:
        {
          IntBuffer from = ((IntBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? IntBuffer.allocate(capacity).put(from)
                  : bytes(view, 4).asIntBuffer().put(from);
          break;
        }
      case LONG:
        {
          LongBuffer from = ((LongBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? LongBuffer.allocate(capacity).put(from)
                  : bytes(view, 8).asLongBuffer().put(from);
          break;
        }
      case FLOAT:
        {
          FloatBuffer from = ((FloatBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? FloatBuffer.allocate(capacity).put(from)
                  : bytes(view, 4).asFloatBuffer().put(from);
          break;
        }
      case DOUBLE:
        {
          DoubleBuffer from = ((DoubleBuffer) view).duplicate().clear();
          copy =
              heapNative(view)
                  ? DoubleBuffer.allocate(capacity).put(from)
                  : bytes(view, 8).asDoubleBuffer().put(from);
          break;
        }
      default:
        throw new IllegalArgumentException(type.name());
    }
    copy.limit(view.limit());
    copy.position(view.position());
    if (view.isReadOnly()) {
      copy = readOnly(copy, type);
    }
    if (type == BufferType.BYTE) {
      // Last: asReadOnlyBuffer() resets a ByteBuffer's order to BIG_ENDIAN.
      ((ByteBuffer) copy).order(((ByteBuffer) view).order());
    }
    return copy;
  }

  /** Returns whether a typed copy of {@code view} can be a plain heap buffer (native order). */
  private static boolean heapNative(Buffer view) {
    return !view.isDirect() && order(view) == ByteOrder.nativeOrder();
  }

  /** Returns a byte buffer of the view's kind and order for {@code elementBytes}-wide elements. */
  private static ByteBuffer bytes(Buffer view, int elementBytes) {
    long size = (long) view.capacity() * elementBytes;
    if (size > Integer.MAX_VALUE) {
      throw new OutOfMemoryError("a " + size + "-byte buffer is past what a ByteBuffer holds");
    }
    ByteBuffer b =
        view.isDirect() ? ByteBuffer.allocateDirect((int) size) : ByteBuffer.allocate((int) size);
    return b.order(order(view));
  }

  private static ByteOrder order(Buffer b) {
    if (b instanceof CharBuffer) {
      return ((CharBuffer) b).order();
    }
    if (b instanceof ShortBuffer) {
      return ((ShortBuffer) b).order();
    }
    if (b instanceof IntBuffer) {
      return ((IntBuffer) b).order();
    }
    if (b instanceof LongBuffer) {
      return ((LongBuffer) b).order();
    }
    if (b instanceof FloatBuffer) {
      return ((FloatBuffer) b).order();
    }
    if (b instanceof DoubleBuffer) {
      return ((DoubleBuffer) b).order();
    }
    return ((ByteBuffer) b).order();
  }

  private static Buffer readOnly(Buffer b, BufferType type) {
    switch (type) {
      case BYTE:
        return ((ByteBuffer) b).asReadOnlyBuffer();
      case CHAR:
        return ((CharBuffer) b).asReadOnlyBuffer();
      case SHORT:
        return ((ShortBuffer) b).asReadOnlyBuffer();
      case INT:
        return ((IntBuffer) b).asReadOnlyBuffer();
      case LONG:
        return ((LongBuffer) b).asReadOnlyBuffer();
      case FLOAT:
        return ((FloatBuffer) b).asReadOnlyBuffer();
      default:
        return ((DoubleBuffer) b).asReadOnlyBuffer();
    }
  }
}
