package org.flodl.budget.agent.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * What the pricer reads of a memory segment inside {@code jdk.internal.foreign} (JDK 22 to 25),
 * opened to the agent through its own {@code Instrumentation} (the pricer's JDK grant): a native
 * segment's address ({@code min}), its session ({@code scope}), the session's resource list ({@code
 * resourceList.fst}, linked by {@code next}) whose cleanups free the session's allocations, a heap
 * segment's array ({@code base}, which {@code heapBase()} hides for a read-only one), a mapped
 * segment's unmapper and its mapping's size. An allocation's cleanup is found by type, not by name:
 * a cleanup class with a {@code long} field an address and one a size, checked by containing the
 * segment's address. Anything missing leaves a handle null: the pricer then answers with the public
 * API, marked estimated.
 */
final class SegmentInternals {
  private static final String PKG = "jdk.internal.foreign.";
  private static final MethodType GETTER = MethodType.methodType(Object.class, Object.class);
  private static final MethodType LONG_GETTER = MethodType.methodType(long.class, Object.class);

  /** {@code AbstractMemorySegmentImpl.scope}, {@code (Object)Object}. */
  final MethodHandle scope;

  /** {@code NativeMemorySegmentImpl.min}, {@code (Object)long}. */
  final MethodHandle address;

  /** {@code MemorySessionImpl.resourceList}, then {@code ResourceList.fst}. */
  final MethodHandle resourceList;

  final MethodHandle first;

  /** {@code ResourceCleanup.next}. */
  final MethodHandle next;

  /** {@code HeapMemorySegmentImpl.base}: the array, read-only segments' too. */
  final MethodHandle heapArray;

  /** {@code MappedMemorySegmentImpl.unmapper}, and the unmapper's mapping size. */
  final MethodHandle unmapper;

  final Class<?> implicitSession;
  final Class<?> globalSession;
  private final MethodHandles.Lookup lookup;
  private final ClassValue<MethodHandle[]> allocations =
      new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> c) {
          return allocationFields(c);
        }
      };
  private final ClassValue<MethodHandle> reserves =
      new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> c) {
          return onlyBoolean(c);
        }
      };
  private final ClassValue<MethodHandle> sizes =
      new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> c) {
          return longField(c, "size");
        }
      };

  private SegmentInternals(MethodHandles.Lookup lookup) throws ReflectiveOperationException {
    this.lookup = lookup;
    Class<?> segment = Class.forName(PKG + "AbstractMemorySegmentImpl");
    Class<?> nativeSegment = Class.forName(PKG + "NativeMemorySegmentImpl");
    Class<?> session = Class.forName(PKG + "MemorySessionImpl");
    Class<?> list = Class.forName(PKG + "MemorySessionImpl$ResourceList");
    Class<?> cleanup = Class.forName(PKG + "MemorySessionImpl$ResourceList$ResourceCleanup");
    scope = getter(segment, "scope", GETTER);
    address = getter(nativeSegment, "min", LONG_GETTER);
    resourceList = getter(session, "resourceList", GETTER);
    first = getter(list, "fst", GETTER);
    next = getter(cleanup, "next", GETTER);
    heapArray = getter(Class.forName(PKG + "HeapMemorySegmentImpl"), "base", GETTER);
    unmapper = getter(Class.forName(PKG + "MappedMemorySegmentImpl"), "unmapper", GETTER);
    implicitSession = Class.forName(PKG + "ImplicitSession");
    globalSession = Class.forName(PKG + "GlobalSession");
  }

  /** Returns the internals, or null where {@code jdk.internal.foreign} is not open or not there. */
  static SegmentInternals open() {
    try {
      Module base = Object.class.getModule();
      Module self = SegmentInternals.class.getModule();
      if (!base.getPackages().contains("jdk.internal.foreign")
          || !base.isOpen("jdk.internal.foreign", self)) {
        return null;
      }
      return new SegmentInternals(MethodHandles.lookup());
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null;
    }
  }

  private MethodHandle getter(Class<?> c, String name, MethodType type)
      throws ReflectiveOperationException {
    Field f = c.getDeclaredField(name);
    return MethodHandles.privateLookupIn(c, lookup).unreflectGetter(f).asType(type);
  }

  /**
   * Returns the allocation {@code cleanup} frees, as {@code {base, size}}, or null where its class
   * is not an allocation's (a close action, a mapping's unmap).
   */
  long[] allocation(Object cleanup) throws Throwable {
    MethodHandle[] f = allocations.get(cleanup.getClass());
    if (f == null) {
      return null;
    }
    return new long[] {(long) f[0].invokeExact(cleanup), (long) f[1].invokeExact(cleanup)};
  }

  /**
   * Returns whether the allocation {@code cleanup} frees was reserved against {@code
   * MaxDirectMemorySize} (its one {@code boolean} field, an automatic arena's), false where it has
   * none.
   */
  boolean reserved(Object cleanup) {
    MethodHandle r = reserves.get(cleanup.getClass());
    try {
      return r != null && (boolean) r.invokeExact(cleanup);
    } catch (Throwable t) {
      return false;
    }
  }

  /** Returns the size of the mapping {@code unmapper} unmaps, or -1 where it cannot be read. */
  long mappingSize(Object unmapper) {
    MethodHandle size = sizes.get(unmapper.getClass());
    try {
      return size == null ? -1 : (long) size.invokeExact(unmapper);
    } catch (Throwable t) {
      return -1;
    }
  }

  /**
   * Returns the getters of an allocation cleanup's base and size: the {@code long} fields of class
   * {@code c} whose names say an address ({@code base}, {@code address}, {@code buf}) and a size
   * ({@code size}; the largest where several say so, the aligned allocation); null where it has no
   * such pair.
   */
  private MethodHandle[] allocationFields(Class<?> c) {
    List<Field> bases = new ArrayList<>(2);
    List<Field> sizes = new ArrayList<>(2);
    for (Field f : c.getDeclaredFields()) {
      if (f.getType() != long.class || Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      String n = f.getName().toLowerCase(java.util.Locale.ROOT);
      if (n.contains("size")) {
        sizes.add(f);
      } else if (n.contains("base") || n.contains("address") || n.endsWith("buf")) {
        bases.add(f);
      }
    }
    if (bases.size() != 1 || sizes.isEmpty()) {
      return null;
    }
    try {
      Field size = sizes.get(0);
      for (Field s : sizes) {
        if (s.getName().toLowerCase(java.util.Locale.ROOT).contains("allocation")) {
          size = s; // the aligned allocation, over the bytes asked for
        }
      }
      return new MethodHandle[] {
        MethodHandles.privateLookupIn(c, lookup).unreflectGetter(bases.get(0)).asType(LONG_GETTER),
        MethodHandles.privateLookupIn(c, lookup).unreflectGetter(size).asType(LONG_GETTER)
      };
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Returns a getter of the one instance {@code boolean} field {@code c} declares, or null. */
  private MethodHandle onlyBoolean(Class<?> c) {
    Field only = null;
    for (Field f : c.getDeclaredFields()) {
      if (f.getType() == boolean.class && !Modifier.isStatic(f.getModifiers())) {
        if (only != null) {
          return null;
        }
        only = f;
      }
    }
    try {
      return only == null
          ? null
          : MethodHandles.privateLookupIn(c, lookup)
              .unreflectGetter(only)
              .asType(MethodType.methodType(boolean.class, Object.class));
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Returns a getter of {@code long} field {@code name} of {@code c} or a superclass, or null. */
  private MethodHandle longField(Class<?> c, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      try {
        Field f = k.getDeclaredField(name);
        if (f.getType() == long.class) {
          return MethodHandles.privateLookupIn(k, lookup).unreflectGetter(f).asType(LONG_GETTER);
        }
      } catch (ReflectiveOperationException | RuntimeException e) {
        // not here, or not open: look further up, else none
      }
    }
    return null;
  }
}
