package org.flodl.budget.agent.arrow;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed's view rule on Arrow's values, made Arrow's way: a buffer, a vector or a root whose
 * allocations are over twice what its buffers address is copied from the allocator the original's
 * memory is accounted to, so that the application's allocator limits still hold and its allocator
 * closes clean once the cache's copies are released. A buffer is copied into {@code
 * allocator.buffer(capacity)} with its reader and writer indexes; a vector into {@code
 * getField().createVector(allocator)}, its field buffers copied and loaded as IPC loads them
 * ({@code loadFieldBuffers}), the copies' own references then closed (the vector retains what it
 * keeps); a root into a {@code VectorSchemaRoot} of its schema, its vectors copied, its row count.
 * A vector with children (a list, a struct) is not copied: it is charged its allocations whole. A
 * copy is charged each of its buffers' capacity as the allocator's rounding policy rounds it.
 */
final class ArrowCopies {
  private static final String FIELD_VECTOR = "org.apache.arrow.vector.FieldVector";
  private static final String FIELD = "org.apache.arrow.vector.types.pojo.Field";
  private static final String NODE = "org.apache.arrow.vector.ipc.message.ArrowFieldNode";
  private static final String SCHEMA = "org.apache.arrow.vector.types.pojo.Schema";
  private static final String ROUNDING = "org.apache.arrow.memory.rounding.RoundingPolicy";

  private final MethodHandle buffer; // (allocator, long) -> ArrowBuf
  private final MethodHandle setBytes; // (dst, long, src, long, long)
  private final MethodHandle readerIndex;
  private final MethodHandle writerIndex;
  private final MethodHandle setReaderIndex;
  private final MethodHandle setWriterIndex;
  private final MethodHandle close; // ArrowBuf.close()
  private final MethodHandle rounding; // allocator -> RoundingPolicy
  private final MethodHandle roundedSize; // (policy, long) -> long
  private final MethodHandle headroom; // allocator -> long
  private final Vectors vectors; // null: a buffer's copies, whose loader may see no vectors

  private ArrowCopies(Class<?> buf, Class<?> vectorClass) throws ReflectiveOperationException {
    ClassLoader loader = buf.getClassLoader();
    Class<?> allocator = Class.forName(ArrowApi.ALLOCATOR, false, loader);
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    buffer = handle(l, allocator.getMethod("buffer", long.class));
    setBytes = handle(l, buf.getMethod("setBytes", long.class, buf, long.class, long.class));
    readerIndex = handle(l, buf.getMethod("readerIndex"));
    writerIndex = handle(l, buf.getMethod("writerIndex"));
    setReaderIndex = handle(l, buf.getMethod("readerIndex", long.class));
    setWriterIndex = handle(l, buf.getMethod("writerIndex", long.class));
    close = handle(l, buf.getMethod("close"));
    rounding = handle(l, allocator.getMethod("getRoundingPolicy"));
    roundedSize =
        handle(l, Class.forName(ROUNDING, false, loader).getMethod("getRoundedSize", long.class));
    headroom = handle(l, allocator.getMethod("getHeadroom"));
    vectors = vectorClass == null ? null : new Vectors(l, allocator, vectorClass.getClassLoader());
  }

  /** The vector and root API copies of vectors and roots use (their loader's Arrow). */
  private static final class Vectors {
    final Class<?> fieldVector;
    final MethodHandle allocator;
    final MethodHandle field;
    final MethodHandle createVector; // (field, allocator) -> FieldVector
    final MethodHandle fieldBuffers; // vector -> List<ArrowBuf>
    final MethodHandle children; // vector -> List<FieldVector>
    final MethodHandle loadFieldBuffers; // (vector, node, List)
    final MethodHandle node; // (long, long) -> ArrowFieldNode
    final MethodHandle valueCount;
    final MethodHandle nullCount;
    final MethodHandle schema; // root -> Schema
    final MethodHandle rowCount; // root -> int
    final MethodHandle newRoot; // (Schema, List, int) -> root

    Vectors(MethodHandles.Lookup l, Class<?> allocatorClass, ClassLoader loader)
        throws ReflectiveOperationException {
      fieldVector = Class.forName(FIELD_VECTOR, false, loader);
      Class<?> valueVector = Class.forName(ArrowApi.VECTOR, false, loader);
      Class<?> nodeClass = Class.forName(NODE, false, loader);
      Class<?> rootClass = Class.forName(ArrowApi.ROOT, false, loader);
      allocator = handle(l, valueVector.getMethod("getAllocator"));
      field = handle(l, valueVector.getMethod("getField"));
      createVector =
          handle(l, Class.forName(FIELD, false, loader).getMethod("createVector", allocatorClass));
      fieldBuffers = handle(l, fieldVector.getMethod("getFieldBuffers"));
      children = handle(l, fieldVector.getMethod("getChildrenFromFields"));
      loadFieldBuffers =
          handle(l, fieldVector.getMethod("loadFieldBuffers", nodeClass, List.class));
      node = handle(l, nodeClass.getConstructor(long.class, long.class));
      valueCount = handle(l, valueVector.getMethod("getValueCount"));
      nullCount = handle(l, valueVector.getMethod("getNullCount"));
      schema = handle(l, rootClass.getMethod("getSchema"));
      rowCount = handle(l, rootClass.getMethod("getRowCount"));
      newRoot =
          handle(
              l,
              rootClass.getConstructor(
                  Class.forName(SCHEMA, false, loader), List.class, int.class));
    }
  }

  /**
   * Returns the copies of the Arrow whose {@code ArrowBuf} is {@code buf} (and whose vectors are
   * seen from {@code vectorClass}'s loader), or null where that Arrow lacks the API they use.
   */
  static ArrowCopies of(Class<?> buf, Class<?> vectorClass) {
    try {
      return new ArrowCopies(buf, vectorClass);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private static MethodHandle handle(MethodHandles.Lookup l, java.lang.reflect.Method m)
      throws IllegalAccessException {
    return l.unreflect(m); // called with invoke, which adapts the call's types to Arrow's
  }

  private static MethodHandle handle(MethodHandles.Lookup l, java.lang.reflect.Constructor<?> c)
      throws IllegalAccessException {
    return l.unreflectConstructor(c);
  }

  /**
   * Returns whether {@code vs} (null: a lone buffer) can be copied: each a field vector without
   * children.
   */
  boolean copyable(List<?> vs) throws Throwable {
    if (vs != null) {
      for (Object v : vs) {
        if (!vectors.fieldVector.isInstance(v)
            || !((List<?>) (Object) vectors.children.invoke(v)).isEmpty()) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Returns the bytes copies of {@code bufs} take from {@code allocator}, each capacity rounded as
   * it rounds them, or -1 where the allocator has not that much headroom (a copy would fail).
   */
  long copyBytes(Object allocator, List<Object> bufs, ArrowApi api) throws Throwable {
    Object policy = rounding.invoke(allocator);
    long sum = 0;
    for (Object b : bufs) {
      long c = (long) api.capacity.invokeExact(b);
      sum += c == 0 ? 0 : (long) roundedSize.invoke(policy, c);
    }
    return (long) headroom.invoke(allocator) >= sum ? sum : -1;
  }

  /** Returns a vector's allocator. */
  Object allocatorOf(Object vector) throws Throwable {
    return vectors.allocator.invoke(vector);
  }

  /** Returns a copy of buffer {@code b} from {@code allocator}, with its indexes. */
  Object copyBuffer(Object allocator, Object b, ArrowApi api) throws Throwable {
    long capacity = (long) api.capacity.invokeExact(b);
    Object copy = buffer.invoke(allocator, capacity);
    try {
      if (capacity > 0) {
        setBytes.invoke(copy, 0L, b, 0L, capacity);
        setWriterIndex.invoke(copy, (long) writerIndex.invoke(b));
        setReaderIndex.invoke(copy, (long) readerIndex.invoke(b));
      }
      return copy;
    } catch (Throwable t) {
      close.invoke(copy);
      throw t;
    }
  }

  /** Returns a copy of field vector {@code v}, from its own allocator. */
  Object copyVector(Object v, ArrowApi api) throws Throwable {
    Vectors vs = vectors;
    Object allocator = vs.allocator.invoke(v);
    Object copy = vs.createVector.invoke(vs.field.invoke(v), allocator);
    List<Object> copies = new ArrayList<>();
    try {
      for (Object b : (List<?>) (Object) vs.fieldBuffers.invoke(v)) {
        copies.add(copyBuffer(allocator, b, api));
      }
      Object n =
          vs.node.invoke((long) (int) vs.valueCount.invoke(v), (long) (int) vs.nullCount.invoke(v));
      vs.loadFieldBuffers.invoke(copy, n, copies);
      return copy;
    } catch (Throwable t) {
      ((AutoCloseable) copy).close();
      throw t;
    } finally {
      for (Object c : copies) {
        close.invoke(c); // the vector holds its own reference to each it keeps
      }
    }
  }

  /** Returns a copy of root {@code root}: its schema, each vector copied, its row count. */
  Object copyRoot(Object root, List<?> fieldVectors, ArrowApi api) throws Throwable {
    List<Object> copies = new ArrayList<>(fieldVectors.size());
    try {
      for (Object v : fieldVectors) {
        copies.add(copyVector(v, api));
      }
      return vectors.newRoot.invoke(
          vectors.schema.invoke(root), copies, (int) vectors.rowCount.invoke(root));
    } catch (Throwable t) {
      for (Object c : copies) {
        ((AutoCloseable) c).close();
      }
      throw t;
    }
  }
}
