package org.flodl.budget.agent.djl;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import org.flodl.budget.agent.library.Shallow;
import org.flodl.budget.agent.library.TypeValuePricer;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.TypePricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * DJL's values, found by name on the value's own classes: an {@code NDArray} is charged {@code
 * size() × getDataType().getNumOfBytes()} on {@link Tier#DEVICE} when {@code getDevice().isGpu()},
 * else on {@link Tier#NATIVE} (DJL shows no storage size, so an array is never copied); a {@code
 * Batch} is its data and labels, each array charged once, and is kept as it is. An {@code NDList}
 * is a list: the generic law walks it.
 */
public final class DjlPricing implements TypePricer {
  static final String ND_ARRAY = "ai.djl.ndarray.NDArray";
  static final String BATCH = "ai.djl.training.dataset.Batch";

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);

  @Override
  public ValuePricer pricerOf(Class<?> c) {
    Class<?> ndArray = Types.supertypeNamed(c, ND_ARRAY);
    if (ndArray != null) {
      try {
        return new Arrays(ndArray);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return Shallow.PRICER;
      }
    }
    Class<?> batch = Types.supertypeNamed(c, BATCH);
    if (batch != null) {
      try {
        return new Batches(batch);
      } catch (ReflectiveOperationException | RuntimeException e) {
        return Shallow.PRICER;
      }
    }
    return null;
  }

  /** NDArrays: their elements' bytes on the tier of their device. */
  private static final class Arrays extends TypeValuePricer {
    private final MethodHandle size;
    private final MethodHandle elementBytes;
    private final MethodHandle onGpu;

    Arrays(Class<?> ndArray) throws ReflectiveOperationException {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      size =
          lookup
              .unreflect(ndArray.getMethod("size"))
              .asType(MethodType.methodType(long.class, Object.class));
      Method getDataType = ndArray.getMethod("getDataType");
      elementBytes =
          MethodHandles.filterReturnValue(
                  lookup.unreflect(getDataType),
                  lookup.unreflect(getDataType.getReturnType().getMethod("getNumOfBytes")))
              .asType(MethodType.methodType(int.class, Object.class));
      Method getDevice = ndArray.getMethod("getDevice");
      onGpu =
          MethodHandles.filterReturnValue(
                  lookup.unreflect(getDevice),
                  lookup.unreflect(getDevice.getReturnType().getMethod("isGpu")))
              .asType(MethodType.methodType(boolean.class, Object.class));
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      try {
        long n = (long) size.invokeExact(value);
        int width = (int) elementBytes.invokeExact(value);
        boolean gpu = (boolean) onGpu.invokeExact(value);
        long bytes;
        try {
          bytes = Math.multiplyExact(Math.max(n, 0L), Math.max(width, 0));
        } catch (ArithmeticException overflow) {
          bytes = Long.MAX_VALUE;
        }
        return Priced.owned(gpu ? Tier.DEVICE : Tier.NATIVE, value.getClass().getTypeName(), bytes);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("NDArray could not be sized: " + t, t);
      }
    }
  }

  /** Batches: their data and labels, walked as parts; kept as they are. */
  private static final class Batches extends TypeValuePricer {
    private final MethodHandle data;
    private final MethodHandle labels;

    Batches(Class<?> batch) throws ReflectiveOperationException {
      MethodHandles.Lookup lookup = MethodHandles.publicLookup();
      data = lookup.unreflect(batch.getMethod("getData")).asType(OBJECT_GETTER);
      labels = lookup.unreflect(batch.getMethod("getLabels")).asType(OBJECT_GETTER);
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      return null; // never asked: a batch is priced by its parts
    }

    @Override
    public Object[] parts(Object value) {
      try {
        return new Object[] {(Object) data.invokeExact(value), (Object) labels.invokeExact(value)};
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a Batch could not be read: " + t, t);
      }
    }
  }
}
