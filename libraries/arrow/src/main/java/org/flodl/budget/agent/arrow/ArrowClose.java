package org.flodl.budget.agent.arrow;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.pricing.RetentionPricer;

/**
 * At the entry of an Arrow allocator's {@code close()}: where declined values are still pending
 * release and the allocator still has memory outstanding (its close would report it leaked), a
 * collection is run and the declined values the application no longer reaches are released first,
 * waiting up to {@value #MAX_WAIT_MS} ms for the allocator's outstanding memory to reach 0. An
 * allocator with nothing outstanding, or a job with nothing declined, is not delayed at all.
 */
final class ArrowClose implements EntryHook {
  static final long MAX_WAIT_MS = 2_000;

  private volatile MethodHandle allocated; // (Object)long: getAllocatedMemory(), at first use

  @Override
  public String method() {
    return "org.apache.arrow.memory.BaseAllocator#close()";
  }

  @Override
  public void enter(Object allocator) {
    // without the pricer there is nothing pending to release
  }

  @Override
  public void enter(Object allocator, RetentionPricer pricer) {
    if (pricer.pendingReleaseBytes() <= 0 || outstanding(allocator) <= 0) {
      return;
    }
    pricer.collectDeclined(
        TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MS),
        new BooleanSupplier() {
          @Override
          public boolean getAsBoolean() {
            return outstanding(allocator) <= 0;
          }
        });
  }

  private long outstanding(Object allocator) {
    try {
      MethodHandle h = allocated;
      if (h == null) {
        Class<?> api =
            Class.forName(ArrowApi.ALLOCATOR, false, allocator.getClass().getClassLoader());
        h =
            MethodHandles.publicLookup()
                .unreflect(api.getMethod("getAllocatedMemory"))
                .asType(MethodType.methodType(long.class, Object.class));
        allocated = h;
      }
      return (long) h.invokeExact(allocator);
    } catch (Throwable t) {
      return 0; // an allocator that cannot tell is not waited for
    }
  }
}
