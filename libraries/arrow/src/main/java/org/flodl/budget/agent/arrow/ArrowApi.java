package org.flodl.budget.agent.arrow;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * The Arrow methods the pricer reads a buffer by, found by name on the application's Arrow (its
 * public API, so any Arrow Java since 4.0 with {@code ArrowBuf} in {@code
 * org.apache.arrow.memory}): an {@code ArrowBuf}'s {@code capacity()} and {@code
 * getReferenceManager()}; the manager's {@code getSize()} (the whole allocation the buffer pins),
 * {@code getAllocator()} and {@code release()}; a {@code BufferLedger}'s {@code
 * getAllocationManager()} (the allocation's identity, whose class tells where the memory is:
 * Unsafe's is native, Netty's direct); an allocator's root, limit and headroom; a vector's {@code
 * getBuffers(false)} and a root's {@code getFieldVectors()}.
 */
final class ArrowApi {
  static final String BUF = "org.apache.arrow.memory.ArrowBuf";
  static final String REFERENCE_MANAGER = "org.apache.arrow.memory.ReferenceManager";
  static final String LEDGER = "org.apache.arrow.memory.BufferLedger";
  static final String ALLOCATOR = "org.apache.arrow.memory.BufferAllocator";
  static final String ALLOCATION_MANAGER = "org.apache.arrow.memory.AllocationManager";
  static final String VECTOR = "org.apache.arrow.vector.ValueVector";
  static final String ROOT = "org.apache.arrow.vector.VectorSchemaRoot";

  /** The simple name of Netty's allocation manager (org.apache.arrow.memory.netty since 16). */
  static final String NETTY_MANAGER = "NettyAllocationManager";

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);
  private static final MethodType LONG_GETTER = MethodType.methodType(long.class, Object.class);

  final Class<?> buf;
  final Class<?> ledger;
  final MethodHandle capacity;
  final MethodHandle referenceManager;
  final MethodHandle size;
  final MethodHandle allocator;
  final MethodHandle release;
  final MethodHandle allocationManager;
  final MethodHandle root;
  final MethodHandle headroom;

  /** The manager of buffers that own no memory (an empty buffer): never released. */
  final Object noOp;

  private ArrowApi(Class<?> buf) throws ReflectiveOperationException {
    this.buf = buf;
    ClassLoader loader = buf.getClassLoader();
    Class<?> manager = Class.forName(REFERENCE_MANAGER, false, loader);
    Class<?> alloc = Class.forName(ALLOCATOR, false, loader);
    this.ledger = Class.forName(LEDGER, false, loader);
    MethodHandles.Lookup l = MethodHandles.publicLookup();
    capacity = l.unreflect(buf.getMethod("capacity")).asType(LONG_GETTER);
    referenceManager = l.unreflect(buf.getMethod("getReferenceManager")).asType(OBJECT_GETTER);
    size = l.unreflect(manager.getMethod("getSize")).asType(LONG_GETTER);
    allocator = l.unreflect(manager.getMethod("getAllocator")).asType(OBJECT_GETTER);
    release =
        l.unreflect(manager.getMethod("release"))
            .asType(MethodType.methodType(boolean.class, Object.class));
    allocationManager = l.unreflect(ledger.getMethod("getAllocationManager")).asType(OBJECT_GETTER);
    root = l.unreflect(alloc.getMethod("getRoot")).asType(OBJECT_GETTER);
    headroom = l.unreflect(alloc.getMethod("getHeadroom")).asType(LONG_GETTER);
    Field noOpField = manager.getField("NO_OP");
    this.noOp = noOpField.get(null);
  }

  /** Returns the API of the Arrow whose {@code ArrowBuf} is {@code buf}. */
  static ArrowApi of(Class<?> buf) throws ReflectiveOperationException {
    return new ArrowApi(buf);
  }

  /** Returns {@code (Object)Object[]}: a vector's {@code getBuffers(false)}, for {@code vector}. */
  static MethodHandle buffers(Class<?> vector) throws ReflectiveOperationException {
    MethodHandle h =
        MethodHandles.publicLookup()
            .unreflect(vector.getMethod("getBuffers", boolean.class))
            .asType(MethodType.methodType(Object[].class, Object.class, boolean.class));
    return MethodHandles.insertArguments(h, 1, false);
  }

  /** Returns {@code (Object)Object}: a root's {@code getFieldVectors()}. */
  static MethodHandle fieldVectors(Class<?> root) throws ReflectiveOperationException {
    return MethodHandles.publicLookup()
        .unreflect(root.getMethod("getFieldVectors"))
        .asType(OBJECT_GETTER);
  }
}
