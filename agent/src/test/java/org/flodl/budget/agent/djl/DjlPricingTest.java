package org.flodl.budget.agent.djl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import ai.djl.Device;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.training.dataset.Batch;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.Retained;
import org.flodl.budget.pricing.RetentionException;
import org.flodl.budget.pricing.RetentionPricer;
import org.junit.jupiter.api.Test;

/**
 * DJL's pricer ({@link DjlPricing}): DJL values, reached reflectively by type name, checked against
 * the real DJL 0.36 types: {@link NDArray} is an interface, so the arrays here are proxies
 * implementing it (no engine is needed), answering only {@code size()}, {@code getDataType()} and
 * {@code getDevice()}; {@link NDList}, {@link Batch}, {@link DataType} and {@link Device} are DJL's
 * own classes. An NDArray is charged {@code size × dataType bytes} on the device tier on a GPU, the
 * native tier on a CPU; NDLists and Batches are the sum of their arrays, each charged once.
 */
class DjlPricingTest {
  private final List<String> notices = new ArrayList<>();
  private final RetentionPricer pricer =
      RetentionPricer.standard(
          null, DjlPricingTest.class.getClassLoader(), notices::add, List.of(new DjlPricing()));

  static <T> T proxy(Class<T> type, long size, DataType dataType, Device device) {
    return type.cast(
        Proxy.newProxyInstance(
            DjlPricingTest.class.getClassLoader(),
            new Class<?>[] {type},
            (self, method, args) -> {
              switch (method.getName()) {
                case "size":
                  return size;
                case "getDataType":
                  return dataType;
                case "getDevice":
                  return device;
                case "hashCode":
                  return System.identityHashCode(self);
                case "equals":
                  return self == args[0];
                case "toString":
                  return type.getSimpleName() + "(" + size + " " + dataType + " on " + device + ")";
                default:
                  if (method.getReturnType() == void.class) {
                    return null; // attach(manager), setName(name)
                  }
                  throw new UnsupportedOperationException(method.getName());
              }
            }));
  }

  static NDArray array(long size, DataType dataType, Device device) {
    return proxy(NDArray.class, size, dataType, device);
  }

  @Test
  void anNdArrayIsChargedItsLogicalBytesOnItsDevicesTier() throws RetentionException {
    Priced cpu = pricer.estimate(array(2 * 3, DataType.FLOAT32, Device.cpu()));
    assertEquals(Tier.NATIVE, cpu.tier());
    assertEquals(24, cpu.logicalBytes());
    assertEquals(24, cpu.storageBytes());
    assertEquals(24, cpu.chargedBytes());
    assertFalse(cpu.materialize());

    NDArray onGpu = array(1000, DataType.FLOAT16, Device.gpu(1));
    Retained kept = pricer.retain(onGpu);
    assertEquals(Tier.DEVICE, kept.price().tier());
    assertEquals(2000, kept.price().chargedBytes());
    assertSame(onGpu, kept.value());
    assertFalse(kept.materialized());

    assertEquals(8 * 7, pricer.estimate(array(7, DataType.INT64, Device.cpu())).chargedBytes());
  }

  @Test
  void ndListsAndBatchesAreTheSumOfTheirArraysEachChargedOnce() throws RetentionException {
    NDArray images = array(32 * 784, DataType.FLOAT32, Device.gpu());
    NDArray labels = array(32, DataType.INT64, Device.gpu());
    NDList data = new NDList(images, images);
    Priced list = pricer.estimate(data);
    long nd = pricer.estimate(new NDList()).chargedBytes(); // the list's own object, on the heap
    assertEquals(32 * 784 * 4 + nd, list.chargedBytes(), "the same array twice is charged once");
    assertEquals(Tier.DEVICE, list.tier());
    assertEquals("ai.djl.ndarray.NDList", list.valueType());

    NDManager manager = proxy(NDManager.class, 0, null, null);
    Batch batch = new Batch(manager, data, new NDList(labels), 32, null, null, 0, 1);
    Retained kept = pricer.retain(batch);
    // The batch's own object and its two lists, on the heap.
    long b =
        pricer
            .estimate(new Batch(manager, new NDList(), new NDList(), 0, null, null, 0, 1))
            .chargedBytes();
    assertEquals(32 * 784 * 4 + 32 * 8 + b, kept.price().chargedBytes());
    assertEquals(pricer.estimate(batch), kept.price());
    assertEquals(Tier.DEVICE, kept.price().tier());
    assertEquals("ai.djl.training.dataset.Batch", kept.price().valueType());
    assertSame(batch, kept.value());

    // A batch on the host with one array on a GPU: charged to the tier that holds the most.
    Batch mixed =
        new Batch(
            manager,
            new NDList(array(1000, DataType.FLOAT32, Device.cpu())),
            new NDList(array(10, DataType.FLOAT32, Device.gpu())),
            1,
            null,
            null,
            0,
            1);
    assertEquals(Tier.NATIVE, pricer.estimate(mixed).tier());
    assertEquals(4040 + b, pricer.estimate(mixed).chargedBytes());
  }
}
