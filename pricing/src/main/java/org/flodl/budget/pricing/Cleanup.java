package org.flodl.budget.pricing;

import java.lang.ref.PhantomReference;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The pricer's releases of declined values: each registration a phantom reference to its holder,
 * its action run once the holder is phantom reachable, by a daemon thread ({@value #THREAD}, made
 * at the first registration), by the declining thread at its next registration, or by {@link
 * #collect}. Each declined value's registrations form a group that keeps the bytes the value pins
 * as pending until its last action has run. The collector does not see off-heap bytes: when the
 * pending bytes grow by a caller's threshold since the last ask the thread asks for a collection
 * ({@link System#gc}), as the JDK does for direct buffers, and no application thread waits for it,
 * unless the thread has fallen {@value #BEHIND} thresholds behind ({@link #behind}). An action that
 * throws is said once and counted as run.
 */
final class Cleanup {
  static final String THREAD = "flodl-budget releases";

  /** How many thresholds of pending bytes the thread may fall behind before the backstop. */
  static final int BEHIND = 4;

  /** The most the backstop waits for releases after its collection, in milliseconds. */
  static final long BEHIND_MILLIS = 50;

  /** What a reference that asks the thread for a collection points at. */
  private static final Object WAKE = new Object();

  private final Consumer<String> notice;
  private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
  private final Set<Ref> live = ConcurrentHashMap.newKeySet(); // keeps each reference reachable
  private final AtomicLong pendingBytes = new AtomicLong();
  private final AtomicBoolean toldFailure = new AtomicBoolean();
  private volatile long lowSinceAsk; // the least pending bytes since the last ask
  private volatile long lastBackstop; // the pending bytes the last backstop left
  private volatile boolean started;

  Cleanup(Consumer<String> notice) {
    this.notice = notice;
  }

  /**
   * Has {@code pricer} register {@code value}'s releases as one group pending {@code bytes}, and
   * asks for a collection past {@code threshold}; returns whether anything was registered.
   */
  boolean release(ValuePricer pricer, Object value, long bytes, long threshold) {
    Group g = new Group(Math.max(0, bytes));
    boolean registered;
    try {
      registered = pricer.releaseWhenUnreachable(value, g);
    } finally {
      g.done();
    }
    drain();
    if (registered) {
      collectWhenOver(threshold);
      behind(threshold);
    }
    return registered;
  }

  /**
   * Releases each library value {@code value} holds (a walk within its bounds finds them) as {@link
   * #release} does; returns whether any was registered.
   */
  boolean releaseParts(RetentionPricer pricer, Layout layout, Object value, long threshold) {
    java.util.List<Part> parts = new java.util.ArrayList<>();
    Walk walk = new Walk(pricer, layout, null, Defaults.NANO_TIME);
    walk.collectLibraryParts(parts);
    try {
      walk.visitTop(value);
    } catch (RetentionException e) {
      throw new AssertionError("an estimate copies nothing", e);
    } catch (PricingException e) {
      // it cannot be walked now (it changed, its code threw): what was reached is handed back
    }
    boolean any = false;
    for (Part part : parts) {
      any |= release(part.pricer(), part.value(), part.bytes(), threshold);
    }
    return any;
  }

  /** A library's value a walk reached inside another, its pricer and the bytes it was charged. */
  record Part(Object value, ValuePricer pricer, long bytes) {}

  /**
   * The backstop where the thread has fallen behind (starved on a loaded machine): when the pending
   * bytes have grown by {@value #BEHIND} thresholds since the last backstop, the declining thread
   * collects itself and runs what that freed, for at most {@value #BEHIND_MILLIS} ms besides the
   * collection, as the JDK's own allocation of a direct buffer does before it gives up.
   */
  private void behind(long threshold) {
    long pending = pendingBytes.get();
    if (threshold <= 0 || pending - lastBackstop < BEHIND * threshold) {
      return;
    }
    lastBackstop = pending; // a second thread behind with it does not collect again
    lastBackstop =
        collect(
            TimeUnit.MILLISECONDS.toNanos(BEHIND_MILLIS),
            new BooleanSupplier() {
              @Override
              public boolean getAsBoolean() {
                return pendingBytes.get() < threshold;
              }
            });
  }

  /**
   * Asks the thread for a collection when the pending bytes are {@code threshold} over the least
   * they have been since the last ask (so values the application still reaches are not collected
   * for again and again); never waits.
   */
  void collectWhenOver(long threshold) {
    long pending = pendingBytes.get();
    long base = Math.min(lowSinceAsk, pending);
    lowSinceAsk = base;
    if (threshold > 0 && pending - base >= threshold) {
      lowSinceAsk = pending;
      new PhantomReference<Object>(WAKE, queue).enqueue(); // the thread sees it at once
    }
  }

  /**
   * Collects now and runs every action whose holder is unreachable, waiting up to {@code maxNanos}
   * for the pending groups to be released or {@code enough} to say so; returns the groups' bytes
   * still pending. Called where the library itself would otherwise report the pending values leaked
   * (an allocator's close).
   */
  long collect(long maxNanos, BooleanSupplier enough) {
    if (live.isEmpty() && pendingBytes.get() == 0) {
      return 0;
    }
    System.gc();
    long deadline = System.nanoTime() + maxNanos;
    // Pending bytes with nothing live: an action running on the other thread, about to count.
    while ((!live.isEmpty() || pendingBytes.get() > 0) && !enough.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        break;
      }
      try {
        Reference<?> r =
            queue.remove(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 10)));
        if (r instanceof Ref ref) {
          run(ref);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return pendingBytes.get();
  }

  /**
   * Runs the actions whose holders the collector has found unreachable, without waiting: on the
   * thread that declines, so that a release needing a lock the allocating thread holds (a Netty
   * arena's) is not left to the cleaner thread while that thread waits for memory.
   */
  private void drain() {
    for (Reference<?> r = queue.poll(); r != null; r = queue.poll()) {
      if (r instanceof Ref ref) {
        run(ref);
      } else {
        new PhantomReference<Object>(WAKE, queue).enqueue(); // the thread's, given back
        return;
      }
    }
  }

  long pendingBytes() {
    return pendingBytes.get();
  }

  private void register(Object holder, Runnable action, Group group) {
    if (!started) {
      start();
    }
    group.refs.incrementAndGet();
    live.add(new Ref(holder, queue, action, group));
    // Not collectable before its reference is in live: a reference enqueued before that would be
    // taken for one run already, its action skipped and its group pending for good.
    Reference.reachabilityFence(holder);
  }

  private synchronized void start() {
    if (started) {
      return;
    }
    Thread t =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                loop();
              }
            },
            THREAD);
    t.setDaemon(true);
    t.start();
    started = true;
  }

  private void loop() {
    while (true) {
      try {
        Reference<?> r = queue.remove();
        if (r instanceof Ref ref) {
          run(ref);
        } else if (r != null) {
          System.gc(); // asked for by collectWhenOver
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        // the thread runs on whatever an action did
      }
    }
  }

  private void run(Ref r) {
    if (!live.remove(r)) {
      return; // run already
    }
    try {
      r.action.run();
    } catch (RuntimeException | LinkageError e) {
      if (toldFailure.compareAndSet(false, true)) {
        try {
          notice.accept("handing a declined value back to its library failed: " + e);
        } catch (RuntimeException ignored) {
          // a notice that fails is not the release's problem
        }
      }
    } finally {
      if (r.group.refs.decrementAndGet() == 0) {
        pendingBytes.addAndGet(-r.group.bytes);
      }
    }
  }

  /** One declined value's registrations. */
  final class Group implements Releases {
    final long bytes;
    final AtomicInteger refs = new AtomicInteger();
    private boolean counted;

    Group(long bytes) {
      this.bytes = bytes;
    }

    @Override
    public void whenUnreachable(Object holder, Runnable action) {
      if (!counted) {
        counted = true;
        refs.incrementAndGet(); // held until done(): the group is not released while registering
        pendingBytes.addAndGet(bytes);
      }
      register(holder, action, this);
    }

    /** Ends the registrations: the group is released once its actions have all run. */
    void done() {
      if (counted && refs.decrementAndGet() == 0) {
        pendingBytes.addAndGet(-bytes);
      }
    }
  }

  /** A registration: the holder's phantom, the action, its group. */
  private static final class Ref extends PhantomReference<Object> {
    final Runnable action;
    final Group group;

    Ref(Object holder, ReferenceQueue<Object> queue, Runnable action, Group group) {
      super(holder, queue);
      this.action = action;
      this.group = group;
    }
  }
}
