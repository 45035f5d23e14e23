package org.flodl.budget.pricing;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/** The seven {@link Buffer} element types, with the bytes of one element and the array type. */
enum BufferType {
  BYTE(ByteBuffer.class, byte[].class, 1),
  CHAR(CharBuffer.class, char[].class, 2),
  SHORT(ShortBuffer.class, short[].class, 2),
  INT(IntBuffer.class, int[].class, 4),
  LONG(LongBuffer.class, long[].class, 8),
  FLOAT(FloatBuffer.class, float[].class, 4),
  DOUBLE(DoubleBuffer.class, double[].class, 8);

  final Class<? extends Buffer> type;
  final Class<?> arrayType;
  final int elementBytes;

  BufferType(Class<? extends Buffer> type, Class<?> arrayType, int elementBytes) {
    this.type = type;
    this.arrayType = arrayType;
    this.elementBytes = elementBytes;
  }

  /** Returns the element type of buffer class {@code c}, or null for a Buffer of no known kind. */
  static BufferType of(Class<?> c) {
    for (BufferType t : values()) {
      if (t.type.isAssignableFrom(c)) {
        return t;
      }
    }
    return null;
  }
}
