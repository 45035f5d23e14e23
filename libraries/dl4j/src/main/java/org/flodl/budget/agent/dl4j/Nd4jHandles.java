package org.flodl.budget.agent.dl4j;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;

/**
 * The ND4J methods the pricer reads an INDArray by, and those it takes a DataSet or MultiDataSet
 * apart and puts it together again with, found by name on the value's own classes so the agent
 * needs no ND4J at compile time. An INDArray tells its storage: {@code length()} elements of {@code
 * dataType().width()} bytes address {@code data().underlyingLength()} elements of the buffer it is
 * a view of, and {@code isAttached()} says it lives in a workspace that will be overwritten. A copy
 * is a {@code dup()} made outside every workspace.
 */
final class Nd4jHandles {
  static final String ARRAY = "org.nd4j.linalg.api.ndarray.INDArray";
  static final String DATA_SET = "org.nd4j.linalg.dataset.api.DataSet";
  static final String MULTI_DATA_SET = "org.nd4j.linalg.dataset.api.MultiDataSet";

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);

  /** INDArray: {@code (Object)long} elements addressed and in the buffer, width; copies. */
  final MethodHandle length;

  final MethodHandle underlyingLength;
  final MethodHandle width;
  final MethodHandle attached;
  final MethodHandle dup;

  /**
   * {@code ()Object}: {@code Nd4j.getMemoryManager().scopeOutOfWorkspaces()}, the scope (an
   * AutoCloseable) in which a copy is made: a {@code dup()} made while a workspace is open (as on
   * an {@code AsyncDataSetIterator}'s prefetch thread) would be attached to it.
   */
  final MethodHandle outOfWorkspaces;

  /** DataSet and MultiDataSet: their four parts, {@code (Object)Object} each. */
  final MethodHandle[] parts;

  /** DataSet and MultiDataSet: {@code (Object[])Object}, a new one of the four parts, or null. */
  final MethodHandle rebuild;

  private Nd4jHandles(
      MethodHandle length,
      MethodHandle underlyingLength,
      MethodHandle width,
      MethodHandle attached,
      MethodHandle dup,
      MethodHandle outOfWorkspaces,
      MethodHandle[] parts,
      MethodHandle rebuild) {
    this.length = length;
    this.underlyingLength = underlyingLength;
    this.width = width;
    this.attached = attached;
    this.dup = dup;
    this.outOfWorkspaces = outOfWorkspaces;
    this.parts = parts;
    this.rebuild = rebuild;
  }

  /** Returns the handles for INDArray {@code array} (the interface class). */
  static Nd4jHandles array(Class<?> array) throws ReflectiveOperationException {
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    MethodType toLong = MethodType.methodType(long.class, Object.class);
    Method data = array.getMethod("data");
    Method dataType = array.getMethod("dataType");
    Class<?> nd4j = Class.forName("org.nd4j.linalg.factory.Nd4j", false, array.getClassLoader());
    Method memoryManager = nd4j.getMethod("getMemoryManager");
    MethodHandle outOfWorkspaces =
        MethodHandles.filterReturnValue(
                lookup.unreflect(memoryManager),
                lookup.unreflect(memoryManager.getReturnType().getMethod("scopeOutOfWorkspaces")))
            .asType(MethodType.methodType(Object.class));
    return new Nd4jHandles(
        lookup.unreflect(array.getMethod("length")).asType(toLong),
        MethodHandles.filterReturnValue(
                lookup.unreflect(data),
                lookup.unreflect(data.getReturnType().getMethod("underlyingLength")))
            .asType(toLong),
        MethodHandles.filterReturnValue(
                lookup.unreflect(dataType),
                lookup.unreflect(dataType.getReturnType().getMethod("width")))
            .asType(MethodType.methodType(int.class, Object.class)),
        lookup
            .unreflect(array.getMethod("isAttached"))
            .asType(MethodType.methodType(boolean.class, Object.class)),
        lookup.unreflect(array.getMethod("dup")).asType(OBJECT_GETTER),
        outOfWorkspaces,
        null,
        null);
  }

  /**
   * Returns the handles for a DataSet or MultiDataSet of class {@code c}, whose interface {@code
   * api} is {@link #DATA_SET} or {@link #MULTI_DATA_SET}: its features, labels and their masks,
   * and, where {@code c} has the public constructor of those four, the rebuild.
   */
  static Nd4jHandles parts(Class<?> c, Class<?> api) throws ReflectiveOperationException {
    boolean multi = api.getName().equals(MULTI_DATA_SET);
    String[] getters =
        multi
            ? new String[] {
              "getFeatures", "getLabels", "getFeaturesMaskArrays", "getLabelsMaskArrays"
            }
            : new String[] {
              "getFeatures", "getLabels", "getFeaturesMaskArray", "getLabelsMaskArray"
            };
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    MethodHandle[] parts = new MethodHandle[4];
    Class<?> partType = null;
    for (int i = 0; i < 4; i++) {
      Method m = api.getMethod(getters[i]);
      partType = i == 0 ? m.getReturnType() : partType;
      parts[i] = lookup.unreflect(m).asType(OBJECT_GETTER);
    }
    MethodHandle rebuild;
    try {
      rebuild =
          lookup
              .findConstructor(
                  c, MethodType.methodType(void.class, partType, partType, partType, partType))
              .asType(
                  MethodType.methodType(
                      Object.class, Object.class, Object.class, Object.class, Object.class))
              .asSpreader(Object[].class, 4);
    } catch (NoSuchMethodException | IllegalAccessException e) {
      rebuild = null; // kept as it is: a view inside is charged its whole buffer
    }
    return new Nd4jHandles(null, null, null, null, null, null, parts, rebuild);
  }
}
