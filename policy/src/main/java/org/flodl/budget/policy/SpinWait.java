package org.flodl.budget.policy;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * How a thread waits out a short section another thread holds (a spin lock's, or a counter's
 * carry): it spins, then yields the processor. A platform thread yields after {@value #SPINS}
 * spins, so that a holder the system descheduled gets a core back. A virtual thread keeps spinning
 * for up to {@value #VIRTUAL_SPIN_MILLIS} ms (longer than the system keeps a runnable thread off
 * its cores) before it yields: a virtual thread that yields leaves its carrier to the next task,
 * and in a loader that starts one virtual thread per sample that is another sample's thread, which
 * enters the same call and waits in turn. Thousands of threads would pile up inside a cache's
 * {@code put} behind one descheduled holder, where without the agent there is about one a carrier.
 * The yield in the end keeps the wait bounded should the holder itself be off its carrier (the
 * sections this guards do not unmount their thread, but a class one loads for the first time may
 * block).
 *
 * <p>A waiter counts its tries from 0 and keeps what {@link #pause} returns, starting from 0:
 *
 * <pre>{@code
 * long since = 0;
 * for (int tries = 0; !tryLock(); tries++) {
 *   since = SpinWait.pause(tries, since);
 * }
 * }</pre>
 */
public final class SpinWait {
  /** The spins of a platform thread before each yield. */
  static final int SPINS = 64;

  /**
   * How long a virtual thread spins before it yields: the least time a virtual thread waiting here
   * keeps its carrier (public for the tests that bound the threads a wait lets pile up).
   */
  public static final long VIRTUAL_SPIN_MILLIS = 20;

  private static final long VIRTUAL_SPIN_NANOS = VIRTUAL_SPIN_MILLIS * 1_000_000L;

  /**
   * {@code Thread.isVirtual()}, on JDK 21 and later; null before (there are no virtual threads).
   */
  private static final MethodHandle IS_VIRTUAL = isVirtual();

  private SpinWait() {}

  /**
   * Waits once, the {@code tries}-th time (from 0) the calling thread found the section held:
   * spins, or yields once it has spun its share. {@code since} is what the last call returned (0 at
   * the first); returns what to pass the next call (when a virtual thread's spinning began).
   */
  public static long pause(int tries, long since) {
    if (tries >= SPINS) {
      if (!onVirtualThread()) {
        Thread.yield();
        return since;
      }
      long now = System.nanoTime();
      if (since == 0) {
        since = now | 1; // never 0: 0 means not begun
      } else if (now - since > VIRTUAL_SPIN_NANOS) {
        Thread.yield();
        return since;
      }
    }
    Thread.onSpinWait();
    return since;
  }

  /** Returns whether the calling thread is a virtual thread. */
  static boolean onVirtualThread() {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
    } catch (Throwable e) {
      return false;
    }
  }

  private static MethodHandle isVirtual() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (ReflectiveOperationException e) {
      return null; // before JDK 21
    }
  }
}
