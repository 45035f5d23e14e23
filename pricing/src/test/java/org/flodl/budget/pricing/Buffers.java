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

/** Test helpers that read and reshape any {@link Buffer} without caring for its element type. */
final class Buffers {
  private Buffers() {}

  /** Returns element {@code i} of {@code b} as raw bits. */
  static long get(Buffer b, int i) {
    if (b instanceof ByteBuffer) {
      return ((ByteBuffer) b).get(i);
    }
    if (b instanceof CharBuffer) {
      return ((CharBuffer) b).get(i);
    }
    if (b instanceof ShortBuffer) {
      return ((ShortBuffer) b).get(i);
    }
    if (b instanceof IntBuffer) {
      return ((IntBuffer) b).get(i);
    }
    if (b instanceof LongBuffer) {
      return ((LongBuffer) b).get(i);
    }
    if (b instanceof FloatBuffer) {
      return Float.floatToRawIntBits(((FloatBuffer) b).get(i));
    }
    return Double.doubleToRawLongBits(((DoubleBuffer) b).get(i));
  }

  /** Returns the next element of {@code b} (relative read) as raw bits. */
  static long next(Buffer b) {
    if (b instanceof ByteBuffer) {
      return ((ByteBuffer) b).get();
    }
    if (b instanceof CharBuffer) {
      return ((CharBuffer) b).get();
    }
    if (b instanceof ShortBuffer) {
      return ((ShortBuffer) b).get();
    }
    if (b instanceof IntBuffer) {
      return ((IntBuffer) b).get();
    }
    if (b instanceof LongBuffer) {
      return ((LongBuffer) b).get();
    }
    if (b instanceof FloatBuffer) {
      return Float.floatToRawIntBits(((FloatBuffer) b).get());
    }
    return Double.doubleToRawLongBits(((DoubleBuffer) b).get());
  }

  /** Returns every element of {@code b}, index 0 to its capacity (past its limit too). */
  static long[] all(Buffer b) {
    b = b.duplicate().clear();
    long[] out = new long[b.capacity()];
    for (int i = 0; i < out.length; i++) {
      out[i] = get(b, i);
    }
    return out;
  }

  /** Returns the elements a relative read of {@code b} sees, position to limit (b is unchanged). */
  static long[] remaining(Buffer b) {
    Buffer d = b.duplicate();
    long[] out = new long[d.remaining()];
    for (int i = 0; i < out.length; i++) {
      out[i] = next(d);
    }
    return out;
  }

  static ByteOrder order(Buffer b) {
    if (b instanceof ByteBuffer) {
      return ((ByteBuffer) b).order();
    }
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
    return ((DoubleBuffer) b).order();
  }

  static Buffer readOnly(Buffer b) {
    if (b instanceof ByteBuffer) {
      ByteBuffer bb = (ByteBuffer) b;
      return bb.asReadOnlyBuffer().order(bb.order());
    }
    if (b instanceof CharBuffer) {
      return ((CharBuffer) b).asReadOnlyBuffer();
    }
    if (b instanceof ShortBuffer) {
      return ((ShortBuffer) b).asReadOnlyBuffer();
    }
    if (b instanceof IntBuffer) {
      return ((IntBuffer) b).asReadOnlyBuffer();
    }
    if (b instanceof LongBuffer) {
      return ((LongBuffer) b).asReadOnlyBuffer();
    }
    if (b instanceof FloatBuffer) {
      return ((FloatBuffer) b).asReadOnlyBuffer();
    }
    return ((DoubleBuffer) b).asReadOnlyBuffer();
  }

  /** Returns {@code bytes} seen as elements of {@code type} (a typed view, or itself for BYTE). */
  static Buffer typed(ByteBuffer bytes, BufferType type) {
    switch (type) {
      case BYTE:
        return bytes;
      case CHAR:
        return bytes.asCharBuffer();
      case SHORT:
        return bytes.asShortBuffer();
      case INT:
        return bytes.asIntBuffer();
      case LONG:
        return bytes.asLongBuffer();
      case FLOAT:
        return bytes.asFloatBuffer();
      default:
        return bytes.asDoubleBuffer();
    }
  }

  /** Returns a heap buffer of {@code type} with its own array of {@code n} elements. */
  static Buffer heapArray(BufferType type, int n) {
    switch (type) {
      case BYTE:
        return ByteBuffer.allocate(n);
      case CHAR:
        return CharBuffer.allocate(n);
      case SHORT:
        return ShortBuffer.allocate(n);
      case INT:
        return IntBuffer.allocate(n);
      case LONG:
        return LongBuffer.allocate(n);
      case FLOAT:
        return FloatBuffer.allocate(n);
      default:
        return DoubleBuffer.allocate(n);
    }
  }

  /** Overwrites every element of writable {@code b} with the complement of what it holds. */
  static void invert(Buffer b) {
    b = b.duplicate().clear();
    for (int i = 0; i < b.capacity(); i++) {
      long v = ~get(b, i);
      if (b instanceof ByteBuffer) {
        ((ByteBuffer) b).put(i, (byte) v);
      } else if (b instanceof CharBuffer) {
        ((CharBuffer) b).put(i, (char) v);
      } else if (b instanceof ShortBuffer) {
        ((ShortBuffer) b).put(i, (short) v);
      } else if (b instanceof IntBuffer) {
        ((IntBuffer) b).put(i, (int) v);
      } else if (b instanceof LongBuffer) {
        ((LongBuffer) b).put(i, v);
      } else if (b instanceof FloatBuffer) {
        ((FloatBuffer) b).put(i, Float.intBitsToFloat((int) v));
      } else {
        ((DoubleBuffer) b).put(i, Double.longBitsToDouble(v));
      }
    }
  }
}
