package org.flodl.budget.pricing;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.concurrent.CompletableFuture;

/**
 * How values of one class are priced, worked out once per class (the pricer caches it in a {@link
 * ClassValue}) so pricing a value does no lookups: its shape, the element size of arrays and
 * buffers, the getters that reach a heap buffer's hidden backing store, the array inside a JDK
 * collection, a String's bytes, the reference fields of an application's objects, and the pricer a
 * library contributes for its own types ({@link TypePricer}).
 */
final class Kind {
  enum Shape {
    PRIMITIVE_ARRAY,
    BUFFER,
    STRING,
    OBJECT_ARRAY,
    /** A library's type: priced (or taken apart) by its {@link #pricer}. */
    LIBRARY,
    COLLECTION,
    MAP,
    FUTURE,
    /** An application object (or record): its reference fields are walked. */
    FIELDS,
    /** Shared by the JVM, never retained by one value: classes, loaders, threads, enums. */
    SHARED,
    OTHER
  }

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);

  final Shape shape;
  final String typeName;
  final int elementBytes;
  final BufferType bufferType;

  /** Heap buffers without a visible array: {@code (Object)Object} returning the array, or null. */
  final MethodHandle hiddenArray;

  /** Typed views of a byte buffer: {@code (Object)Object} returning the ByteBuffer, or null. */
  final MethodHandle viewedBytes;

  /**
   * A JDK collection's backing array ({@code ArrayList.elementData}, {@code HashMap.table}, a
   * String's {@code value}): {@code (Object)Object}, or null when it cannot be seen.
   */
  final MethodHandle backing;

  /** References in one node of a linked JDK collection (a HashMap.Node has 3), 0 for none. */
  final int nodeReferences;

  /** Ints in one node (a HashMap.Node's hash, a TreeMap.Entry's color), with the references. */
  final int nodeInts;

  /** Whether elements can be read by index ({@link RandomAccess} lists) instead of iterated. */
  final boolean randomAccess;

  /** The reference fields walked for {@link Shape#FIELDS}. */
  final Field[] fields;

  /** The library's pricer for {@link Shape#LIBRARY}, else null. */
  final ValuePricer pricer;

  /**
   * Whether a value of this class was seen holding a library's value (a walk from it reached one):
   * a declined one is walked again for the parts to hand back.
   */
  volatile boolean holdsLibrary;

  /** Notes that a value of this class reached a library's value of kind {@code part}. */
  void holds(Kind part) {
    if (part != this && !holdsLibrary) {
      holdsLibrary = true; // written once, not at every part of a large value
    }
  }

  private Kind(
      Shape shape,
      Class<?> c,
      int elementBytes,
      BufferType bufferType,
      MethodHandle hiddenArray,
      MethodHandle viewedBytes,
      MethodHandle backing,
      int nodeReferences,
      int nodeInts,
      Field[] fields,
      ValuePricer pricer) {
    this.shape = shape;
    this.typeName = c.getTypeName();
    this.elementBytes = elementBytes;
    this.bufferType = bufferType;
    this.hiddenArray = hiddenArray;
    this.viewedBytes = viewedBytes;
    this.backing = backing;
    this.nodeReferences = nodeReferences;
    this.nodeInts = nodeInts;
    this.randomAccess = RandomAccess.class.isAssignableFrom(c) && List.class.isAssignableFrom(c);
    this.fields = fields;
    this.pricer = pricer;
  }

  private static Kind simple(Shape shape, Class<?> c, int elementBytes) {
    return new Kind(shape, c, elementBytes, null, null, null, null, 0, 0, null, null);
  }

  private static Kind container(Shape shape, Class<?> c, MethodHandle backing, int refs, int ints) {
    return new Kind(shape, c, 0, null, null, null, backing, refs, ints, null, null);
  }

  /** Returns how values of array class {@code c} are priced (nothing of java.base is read). */
  static Kind array(Class<?> c) {
    Class<?> component = c.getComponentType();
    return component.isPrimitive()
        ? simple(Shape.PRIMITIVE_ARRAY, c, primitiveBytes(component))
        : simple(Shape.OBJECT_ARRAY, c, 0);
  }

  /**
   * Returns how values of class {@code c} are priced, with {@code jdk}'s view of java.base, asking
   * {@code libraries} about a class that is not an array, a buffer or a string.
   */
  static Kind of(Class<?> c, JdkAccess jdk, List<TypePricer> libraries) {
    if (c.isArray()) {
      return array(c);
    }
    if (Buffer.class.isAssignableFrom(c)) {
      return buffer(c, jdk);
    }
    if (c == String.class) {
      return container(Shape.STRING, c, getter(String.class, "value", jdk), 0, 0);
    }
    for (int i = 0; i < libraries.size(); i++) {
      ValuePricer p;
      try {
        p = libraries.get(i).pricerOf(c);
      } catch (RuntimeException | LinkageError e) {
        continue; // a library that cannot tell prices none of it
      }
      if (p != null) {
        return new Kind(Shape.LIBRARY, c, 0, null, null, null, null, 0, 0, null, p);
      }
    }
    if (isShared(c)) {
      return simple(Shape.SHARED, c, 0);
    }
    if (CompletableFuture.class.isAssignableFrom(c)) {
      return simple(Shape.FUTURE, c, 0);
    }
    if (Collection.class.isAssignableFrom(c)) {
      return collection(c, jdk);
    }
    if (Map.class.isAssignableFrom(c)) {
      return map(c, jdk);
    }
    if (isJdk(c)) {
      return simple(Shape.OTHER, c, 0); // a JDK object's private fields are not ours to read
    }
    Field[] fields = referenceFields(c);
    return fields.length == 0
        ? simple(Shape.OTHER, c, 0)
        : new Kind(Shape.FIELDS, c, 0, null, null, null, null, 0, 0, fields, null);
  }

  private static Kind collection(Class<?> c, JdkAccess jdk) {
    String n = c.getName();
    switch (n) {
      case "java.util.ArrayList":
        return container(
            Shape.COLLECTION, c, getter(java.util.ArrayList.class, "elementData", jdk), 0, 0);
      case "java.util.ArrayDeque":
        return container(
            Shape.COLLECTION, c, getter(java.util.ArrayDeque.class, "elements", jdk), 0, 0);
      case "java.util.HashSet":
      case "java.util.LinkedHashSet":
        return container(
            Shape.COLLECTION, c, setTable(jdk), n.equals("java.util.HashSet") ? 3 : 5, 1);
      case "java.util.LinkedList":
        return container(Shape.COLLECTION, c, null, 3, 0);
      default:
        return container(Shape.COLLECTION, c, null, 0, 0);
    }
  }

  private static Kind map(Class<?> c, JdkAccess jdk) {
    switch (c.getName()) {
      case "java.util.HashMap":
        return container(Shape.MAP, c, getter(java.util.HashMap.class, "table", jdk), 3, 1);
      case "java.util.LinkedHashMap":
        return container(Shape.MAP, c, getter(java.util.HashMap.class, "table", jdk), 5, 1);
      case "java.util.concurrent.ConcurrentHashMap":
        return container(
            Shape.MAP, c, getter(java.util.concurrent.ConcurrentHashMap.class, "table", jdk), 3, 1);
      case "java.util.TreeMap":
        return container(Shape.MAP, c, null, 5, 1);
      default:
        return container(Shape.MAP, c, null, 0, 0);
    }
  }

  /** {@code HashSet.map.table}, for a set's buckets. */
  private static MethodHandle setTable(JdkAccess jdk) {
    MethodHandle map = getter(java.util.HashSet.class, "map", jdk);
    MethodHandle table = getter(java.util.HashMap.class, "table", jdk);
    return map == null || table == null ? null : MethodHandles.filterReturnValue(map, table);
  }

  /** Returns {@code (Object)Object} reading private field {@code name} of JDK class {@code c}. */
  private static MethodHandle getter(Class<?> c, String name, JdkAccess jdk) {
    if (jdk.internals == null) {
      return null;
    }
    try {
      Field f = c.getDeclaredField(name);
      return MethodHandles.privateLookupIn(c, jdk.internals)
          .unreflectGetter(f)
          .asType(OBJECT_GETTER);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Returns the instance reference fields of {@code c} and its superclasses that can be read. */
  private static Field[] referenceFields(Class<?> c) {
    List<Field> out = new ArrayList<>();
    for (Class<?> k = c; k != null && k != Object.class && !isJdk(k); k = k.getSuperclass()) {
      Field[] declared;
      try {
        declared = k.getDeclaredFields();
      } catch (LinkageError | RuntimeException e) {
        continue;
      }
      for (Field f : declared) {
        if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
          continue;
        }
        try {
          f.setAccessible(true);
          out.add(f);
        } catch (RuntimeException e) {
          // a field of a closed module: not walked
        }
      }
    }
    return out.toArray(new Field[0]);
  }

  /** Returns whether {@code c} is the JDK's (its own module, not the application's). */
  static boolean isJdk(Class<?> c) {
    Module m = c.getModule();
    if (!m.isNamed()) {
      return false;
    }
    ClassLoader l = m.getClassLoader();
    return l == null || l == ClassLoader.getPlatformClassLoader();
  }

  /** Returns whether values of {@code c} belong to the JVM rather than to one cached value. */
  private static boolean isShared(Class<?> c) {
    return c == Class.class
        || ClassLoader.class.isAssignableFrom(c)
        || Thread.class.isAssignableFrom(c)
        || c == Module.class
        || c.isEnum()
        || c.getSuperclass() != null && c.getSuperclass().isEnum()
        || java.lang.reflect.Member.class.isAssignableFrom(c);
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
        Shape.BUFFER, c, t.elementBytes, t, hiddenArray, viewedBytes, null, 0, 0, null, null);
  }

  private static MethodHandle fieldGetter(Class<?> c, String name, Class<?> type, JdkAccess jdk) {
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
