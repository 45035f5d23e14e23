package org.flodl.budget.agent.djl;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.List;
import org.flodl.budget.agent.library.DepthContext;
import org.flodl.budget.policy.Saturating;

/**
 * Reads DJL objects without linking against DJL (the agent is on the boot class path, DJL in the
 * application's loader): each accessor is looked up once per class, through DJL's public types in
 * that class's own loader, and cached in a {@link ClassValue}. Every method returns a neutral
 * answer ({@code -1}, {@code null}, {@code cpu}) for what it cannot read and never throws.
 */
final class DjlReflection {
  static final String DATA_ITERABLE = "ai.djl.training.dataset.DataIterable";
  static final String ARRAY_DATASET = "ai.djl.training.dataset.ArrayDataset";
  private static final String NDARRAY = "ai.djl.ndarray.NDArray";

  private DjlReflection() {}

  // ------------------------------------------------------------------------------ device

  /** A device as the events name it, {@code cpu} or {@code cuda:N}, and DJL's own object. */
  record DeviceRef(boolean cuda, int index, Object device) {
    static final DeviceRef CPU = new DeviceRef(false, -1, null);

    /** Returns the event's device name. */
    String label() {
      return cuda ? "cuda:" + index : "cpu";
    }
  }

  private static final ClassValue<Method[]> DEVICE =
      new ClassValue<>() {
        @Override
        protected Method[] computeValue(Class<?> c) {
          try {
            return new Method[] {c.getMethod("isGpu"), c.getMethod("getDeviceId")};
          } catch (Throwable t) {
            return null;
          }
        }
      };

  private static final ClassValue<Method> GET_DEVICE =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> c) {
          return publicMethod(c, "ai.djl.ndarray.NDManager", "getDevice");
        }
      };

  /** Returns the device of a DJL {@code Device}, else of the manager, else {@code cpu}. */
  static DeviceRef device(Object device, Object manager) {
    try {
      Object d = device;
      if (d == null && manager != null) {
        Method m = GET_DEVICE.get(manager.getClass());
        d = m == null ? null : m.invoke(manager);
      }
      if (d == null) {
        return DeviceRef.CPU;
      }
      Method[] m = DEVICE.get(d.getClass());
      if (m == null) {
        return DeviceRef.CPU;
      }
      boolean gpu = (Boolean) m[0].invoke(d);
      return gpu ? new DeviceRef(true, Math.max(0, (Integer) m[1].invoke(d)), d) : DeviceRef.CPU;
    } catch (Throwable t) {
      return DeviceRef.CPU;
    }
  }

  // ------------------------------------------------------------------------------ batches

  /** The accessors of a batch's parts, getData and getLabels (each an NDList). */
  private static final class BatchAccess {
    final Method data;
    final Method labels;

    BatchAccess(Class<?> batch) throws ReflectiveOperationException {
      data = batch.getMethod("getData");
      labels = batch.getMethod("getLabels");
    }
  }

  /** Returns the bytes of the NDArrays of an NDList, each as the pricer prices it; -1 unknown. */
  private static long arrays(Object list, DepthContext e) {
    if (!(list instanceof List)) {
      return 0;
    }
    long total = 0;
    for (Object a : (List<?>) list) {
      long bytes = a == null ? 0 : e.logicalBytes(a);
      if (bytes < 0) {
        return -1;
      }
      total = Saturating.add(total, bytes);
    }
    return total;
  }

  private static final ClassValue<BatchAccess> BATCH =
      new ClassValue<>() {
        @Override
        protected BatchAccess computeValue(Class<?> c) {
          try {
            return new BatchAccess(c);
          } catch (Throwable t) {
            return null;
          }
        }
      };

  /**
   * Returns a batch's bytes, its data and labels arrays as the pricer prices each ({@code size() ×
   * dataType bytes}); -1 unknown.
   */
  static long batchBytes(Object batch, DepthContext e) {
    if (batch == null) {
      return -1;
    }
    try {
      BatchAccess b = BATCH.get(batch.getClass());
      if (b == null) {
        return -1;
      }
      long data = arrays(b.data.invoke(batch), e);
      long labels = arrays(b.labels.invoke(batch), e);
      return data < 0 || labels < 0 ? -1 : Saturating.add(data, labels);
    } catch (Throwable t) {
      return -1;
    }
  }

  // ------------------------------------------------------------------------------ datasets

  private static final ClassValue<Field> ITERABLE_DATASET =
      new ClassValue<>() {
        @Override
        protected Field computeValue(Class<?> c) {
          Field f = declared(c, DATA_ITERABLE, "dataset");
          return f;
        }
      };

  /** Returns the dataset a {@code DataIterable} (any subtype) reads, or null. */
  static Object datasetOf(Object iterable) {
    try {
      Field f = ITERABLE_DATASET.get(iterable.getClass());
      return f == null ? null : f.get(iterable);
    } catch (Throwable t) {
      return null;
    }
  }

  private static final ClassValue<Field[]> ARRAYS =
      new ClassValue<>() {
        @Override
        protected Field[] computeValue(Class<?> c) {
          Field data = declared(c, ARRAY_DATASET, "data");
          Field labels = declared(c, ARRAY_DATASET, "labels");
          return data == null ? null : new Field[] {data, labels};
        }
      };

  private static final ClassValue<Method> DATASET_SIZE =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> c) {
          return publicMethod(c, "ai.djl.training.dataset.RandomAccessDataset", "size");
        }
      };

  private static final ClassValue<Method> BATCH_SIZE =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> c) {
          return publicMethod(c, "ai.djl.training.dataset.Sampler", "getBatchSize");
        }
      };

  /** Returns the sampler's batch size, or -1. */
  static long batchSize(Object sampler) {
    try {
      Method m = sampler == null ? null : BATCH_SIZE.get(sampler.getClass());
      return m == null ? -1 : ((Integer) m.invoke(sampler)).longValue();
    } catch (Throwable t) {
      return -1;
    }
  }

  /** Returns the dataset's sample count, or -1. */
  static long datasetSize(Object dataset) {
    try {
      Method m = dataset == null ? null : DATASET_SIZE.get(dataset.getClass());
      return m == null ? -1 : (Long) m.invoke(dataset);
    } catch (Throwable t) {
      return -1;
    }
  }

  /**
   * Returns one batch's bytes as an {@code ArrayDataset} holds them (each data and label array's
   * bytes per sample, times the batch size): the first epoch's price, before any batch has passed.
   * -1 for any other dataset or anything unreadable.
   */
  static long arrayDatasetBatchBytes(Object dataset, long batchSize, DepthContext e) {
    if (dataset == null || batchSize <= 0) {
      return -1;
    }
    try {
      Field[] f = ARRAYS.get(dataset.getClass());
      if (f == null) {
        return -1;
      }
      long perSample = 0;
      for (Field field : f) {
        Object arrays = field == null ? null : field.get(dataset);
        if (!(arrays instanceof Object[])) {
          continue;
        }
        for (Object a : (Object[]) arrays) {
          if (a == null) {
            continue;
          }
          long rows = firstDimension(a);
          long bytes = e.logicalBytes(a);
          if (rows <= 0 || bytes < 0) {
            return -1;
          }
          perSample = Saturating.add(perSample, bytes / rows);
        }
      }
      return perSample == 0 ? -1 : Saturating.mul(perSample, batchSize);
    } catch (Throwable t) {
      return -1;
    }
  }

  private static final ClassValue<Method[]> SHAPE =
      new ClassValue<>() {
        @Override
        protected Method[] computeValue(Class<?> c) {
          try {
            Method shape = publicMethod(c, NDARRAY, "getShape");
            return shape == null
                ? null
                : new Method[] {
                  shape,
                  shape.getReturnType().getMethod("get", int.class),
                  shape.getReturnType().getMethod("dimension")
                };
          } catch (Throwable t) {
            return null;
          }
        }
      };

  private static long firstDimension(Object ndarray) throws ReflectiveOperationException {
    Method[] m = SHAPE.get(ndarray.getClass());
    if (m == null) {
      return -1;
    }
    Object shape = m[0].invoke(ndarray);
    if (shape == null || (Integer) m[2].invoke(shape) < 1) {
      return -1;
    }
    return (Long) m[1].invoke(shape, 0);
  }

  // ------------------------------------------------------------------------------ helpers

  /** Returns the public method {@code name()} of DJL type {@code typeName}, seen from {@code c}. */
  static Method publicMethod(Class<?> c, String typeName, String name) {
    try {
      Class<?> type = Class.forName(typeName, false, c.getClassLoader());
      return type.isAssignableFrom(c) ? type.getMethod(name) : null;
    } catch (Throwable t) {
      return null;
    }
  }

  /** Returns field {@code name} declared by the superclass of {@code c} named {@code owner}. */
  static Field declared(Class<?> c, String owner, String name) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(owner)) {
        try {
          Field f = k.getDeclaredField(name);
          f.setAccessible(true);
          return f;
        } catch (Throwable t) {
          return null;
        }
      }
    }
    return null;
  }
}
