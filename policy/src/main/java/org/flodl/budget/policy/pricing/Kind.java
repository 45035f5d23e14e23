package org.flodl.budget.policy.pricing;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Map;

/**
 * How values of one class are priced, worked out once per class (the pricer caches it in a {@link
 * ClassValue}) so pricing a value does no lookups: its shape, the element size of arrays and
 * buffers, the getters that reach a heap buffer's hidden backing store, and the DJL methods, found
 * by name so {@code policy} needs no DJL at compile time.
 */
final class Kind {
  enum Shape {
    PRIMITIVE_ARRAY,
    BUFFER,
    OBJECT_ARRAY,
    ND_ARRAY,
    ND_LIST,
    BATCH,
    COLLECTION,
    MAP,
    OTHER
  }

  static final String ND_ARRAY = "ai.djl.ndarray.NDArray";
  static final String ND_LIST = "ai.djl.ndarray.NDList";
  static final String BATCH = "ai.djl.training.dataset.Batch";

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);

  final Shape shape;
  final String typeName;
  final int elementBytes;
  final BufferType bufferType;

  /** Heap buffers without a visible array: {@code (Object)Object} returning the array, or null. */
  final MethodHandle hiddenArray;

  /** Typed views of a byte buffer: {@code (Object)Object} returning the ByteBuffer, or null. */
  final MethodHandle viewedBytes;

  /** NDArray: {@code (Object)long} size, {@code (Object)int} bytes per element. */
  final MethodHandle ndSize;

  final MethodHandle ndElementBytes;

  /** NDArray: {@code (Object)boolean}, whether it lives on a GPU. */
  final MethodHandle ndOnGpu;

  /** Batch: {@code (Object)Object} data and labels. */
  final MethodHandle batchData;

  final MethodHandle batchLabels;

  private Kind(
      Shape shape,
      String typeName,
      int elementBytes,
      BufferType bufferType,
      MethodHandle hiddenArray,
      MethodHandle viewedBytes,
      MethodHandle ndSize,
      MethodHandle ndElementBytes,
      MethodHandle ndOnGpu,
      MethodHandle batchData,
      MethodHandle batchLabels) {
    this.shape = shape;
    this.typeName = typeName;
    this.elementBytes = elementBytes;
    this.bufferType = bufferType;
    this.hiddenArray = hiddenArray;
    this.viewedBytes = viewedBytes;
    this.ndSize = ndSize;
    this.ndElementBytes = ndElementBytes;
    this.ndOnGpu = ndOnGpu;
    this.batchData = batchData;
    this.batchLabels = batchLabels;
  }

  private static Kind simple(Shape shape, Class<?> c, int elementBytes) {
    return new Kind(
        shape, c.getTypeName(), elementBytes, null, null, null, null, null, null, null, null);
  }

  /** Returns how values of class {@code c} are priced, with {@code jdk}'s view of java.nio. */
  static Kind of(Class<?> c, JdkAccess jdk) {
    if (c.isArray()) {
      Class<?> component = c.getComponentType();
      return component.isPrimitive()
          ? simple(Shape.PRIMITIVE_ARRAY, c, primitiveBytes(component))
          : simple(Shape.OBJECT_ARRAY, c, 0);
    }
    if (Buffer.class.isAssignableFrom(c)) {
      return buffer(c, jdk);
    }
    Class<?> ndArray = supertypeNamed(c, ND_ARRAY);
    if (ndArray != null) {
      return ndArray(c, ndArray);
    }
    if (supertypeNamed(c, ND_LIST) != null) {
      return simple(Shape.ND_LIST, c, 0);
    }
    Class<?> batch = supertypeNamed(c, BATCH);
    if (batch != null) {
      try {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        return new Kind(
            Shape.BATCH,
            c.getTypeName(),
            0,
            null,
            null,
            null,
            null,
            null,
            null,
            lookup.unreflect(batch.getMethod("getData")).asType(OBJECT_GETTER),
            lookup.unreflect(batch.getMethod("getLabels")).asType(OBJECT_GETTER));
      } catch (ReflectiveOperationException | RuntimeException e) {
        return simple(Shape.OTHER, c, 0);
      }
    }
    if (Collection.class.isAssignableFrom(c)) {
      return simple(Shape.COLLECTION, c, 0);
    }
    if (Map.class.isAssignableFrom(c)) {
      return simple(Shape.MAP, c, 0);
    }
    return simple(Shape.OTHER, c, 0);
  }

  private static Kind buffer(Class<?> c, JdkAccess jdk) {
    BufferType t = BufferType.of(c);
    if (t == null) {
      return simple(Shape.OTHER, c, 0);
    }
    MethodHandle hiddenArray = null;
    MethodHandle viewedBytes = null;
    if (jdk.nio != null) {
      try {
        hiddenArray =
            MethodHandles.privateLookupIn(t.type, jdk.nio)
                .findGetter(t.type, "hb", t.arrayType)
                .asType(OBJECT_GETTER);
      } catch (ReflectiveOperationException | RuntimeException e) {
        hiddenArray = null;
      }
      if (t != BufferType.BYTE) {
        viewedBytes = fieldGetter(c, "bb", ByteBuffer.class, jdk);
      }
    }
    return new Kind(
        Shape.BUFFER,
        c.getTypeName(),
        t.elementBytes,
        t,
        hiddenArray,
        viewedBytes,
        null,
        null,
        null,
        null,
        null);
  }

  private static MethodHandle fieldGetter(
      Class<?> c, String name, Class<?> type, JdkAccess jdk) {
    for (Class<?> k = c; k != null && k.getModule() == Buffer.class.getModule(); ) {
      try {
        return MethodHandles.privateLookupIn(k, jdk.nio)
            .findGetter(k, name, type)
            .asType(OBJECT_GETTER);
      } catch (NoSuchFieldException e) {
        k = k.getSuperclass();
      } catch (ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }
    return null;
  }

  private static Kind ndArray(Class<?> c, Class<?> ndArray) {
    try {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      MethodHandle size =
          lookup
              .unreflect(ndArray.getMethod("size"))
              .asType(MethodType.methodType(long.class, Object.class));
      java.lang.reflect.Method getDataType = ndArray.getMethod("getDataType");
      MethodHandle elementBytes =
          MethodHandles.filterReturnValue(
                  lookup.unreflect(getDataType),
                  lookup.unreflect(getDataType.getReturnType().getMethod("getNumOfBytes")))
              .asType(MethodType.methodType(int.class, Object.class));
      java.lang.reflect.Method getDevice = ndArray.getMethod("getDevice");
      MethodHandle onGpu =
          MethodHandles.filterReturnValue(
                  lookup.unreflect(getDevice),
                  lookup.unreflect(getDevice.getReturnType().getMethod("isGpu")))
              .asType(MethodType.methodType(boolean.class, Object.class));
      return new Kind(
          Shape.ND_ARRAY,
          c.getTypeName(),
          0,
          null,
          null,
          null,
          size,
          elementBytes,
          onGpu,
          null,
          null);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return simple(Shape.OTHER, c, 0);
    }
  }

  /** Returns the class or interface named {@code name} that {@code c} is or extends, or null. */
  static Class<?> supertypeNamed(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(name)) {
        return k;
      }
      Class<?> found = interfaceNamed(k, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static Class<?> interfaceNamed(Class<?> c, String name) {
    for (Class<?> i : c.getInterfaces()) {
      if (i.getName().equals(name)) {
        return i;
      }
      Class<?> found = interfaceNamed(i, name);
      if (found != null) {
        return found;
      }
    }
    return null;
  }

  private static int primitiveBytes(Class<?> p) {
    if (p == byte.class || p == boolean.class) {
      return 1;
    }
    if (p == char.class || p == short.class) {
      return 2;
    }
    if (p == int.class || p == float.class) {
      return 4;
    }
    return 8;
  }
}
