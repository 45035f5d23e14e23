package org.flodl.budget.agent.gate;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Log;

/**
 * The size bounds the budget steers: those of caches with a witness ({@link Witnessed}) that a
 * decline would mislead, where the library's bound can be moved while the cache runs ({@link
 * Bound}). Such a cache's call that finds its tier's budget full is not declined: its value is
 * stored, as under the library's own bound, and booked over the budget, and the cache's bound is
 * set below what it holds by as many entries (of this value's charge) as the tier is over, an
 * eighth of what it holds at most, and at most once every {@value #SPACING_NANOS} ns. The ledger so
 * counts everything the cache keeps reachable, what the library evicted but has not yet let go of
 * (a removal listener it has yet to call, a value not yet collected) included, and the bound
 * follows it down. An admission within the budget on a cache at its steered bound raises it one
 * entry, up to the application's own bound, which is given back to every cache when the agent is
 * switched to observe. The library evicts, with its own cause, on its own executor or at its own
 * next write, and tells its own listeners; the agent changes only the number. Lock-free: each bound
 * is moved by whoever wins its compare-and-set, a race costs one move.
 */
final class Steering {
  /** A steered cache: its bound, the application's own value, and the value the agent set. */
  private static final class Steered {
    final WeakReference<Object> cache;
    final Bound bound;
    final long original;
    final AtomicLong target;

    /** When the bound was last lowered ({@link System#nanoTime}). */
    final AtomicLong loweredAt = new AtomicLong(System.nanoTime() - SPACING_NANOS);

    /** The receivers that reached it (a manual cache, its map view). */
    final WeakReference<?>[] receivers = new WeakReference<?>[4];

    Steered(Bound bound, long original) {
      this.cache = new WeakReference<>(bound.cache());
      this.bound = bound;
      this.original = original;
      this.target = new AtomicLong(original);
    }

    boolean reachedBy(Object receiver) {
      if (cache.get() == receiver) {
        return true;
      }
      for (WeakReference<?> r : receivers) {
        if (r != null && r.get() == receiver) {
          return true;
        }
      }
      return false;
    }

    void seen(Object receiver) {
      if (reachedBy(receiver)) {
        return;
      }
      for (int i = 0; i < receivers.length; i++) {
        WeakReference<?> r = receivers[i];
        if (r == null || r.get() == null) {
          receivers[i] = new WeakReference<>(receiver);
          return;
        }
      }
    }

    /** Moves the bound from {@code now} to {@code next}, unless another thread moved it first. */
    void move(long now, long next) throws ReflectiveOperationException {
      if (next != now && target.compareAndSet(now, next)) {
        bound.set(next);
      }
    }
  }

  private static final Steered[] NONE = {};

  /**
   * The least time between two lowerings of one bound: what the library evicted is released when
   * the collector finds it unreachable (after its removal listener has run), so the tier stays over
   * its budget for a while after each lowering; lowering again before then would count the same
   * bytes twice.
   */
  static final long SPACING_NANOS = 250_000_000L;

  /** The steered caches, copied on write (few: one a witnessed cache that filled its tier). */
  private static volatile Steered[] steered = NONE;

  private Steering() {}

  /**
   * Returns whether the cache of {@code bound} (null: it has none) is steered, in words ({@code
   * "its own: 1000000"}), or null where it has no bound to steer.
   */
  static String steers(Bound bound, Object receiver) throws ReflectiveOperationException {
    if (bound == null) {
      return null;
    }
    Steered s = steered(bound);
    s.seen(receiver);
    return "its own: " + s.original;
  }

  /**
   * Lowers the bound of {@code receiver}'s cache below what it holds by the entries the tier is
   * {@code overBytes} over its budget, at {@code entryBytes} an entry; called once the value that
   * took it over is held.
   */
  static void over(Object receiver, long overBytes, long entryBytes) {
    Steered s = find(receiver);
    if (s == null) {
      return;
    }
    try {
      Bound b = s.bound;
      long size = b.size();
      long step = step(b, size);
      long entries = entryBytes <= 0 ? 1 : (overBytes + entryBytes - 1) / entryBytes;
      long now = s.target.get();
      long held = Math.min(now, size);
      // at most an eighth of what the cache holds at a time: the rest may be releases under way
      long down = Math.min(entries * step, Math.max(step, held / 8));
      long next = Math.max(b.least() * step, held - down);
      if (next < now && spaced(s)) {
        s.move(now, next);
      }
    } catch (Throwable x) {
      failed(x);
    }
  }

  /**
   * Raises the steered bound of {@code receiver}'s cache one entry, up to the application's own,
   * where the cache is at it: an admission there found room in the budget.
   */
  static void admitted(Object receiver) {
    if (steered.length == 0 || receiver == null) {
      return;
    }
    Steered s = find(receiver);
    if (s == null) {
      return;
    }
    try {
      long now = s.target.get();
      long size = s.bound.size();
      long step = step(s.bound, size);
      if (now < s.original && size + step > now) {
        s.move(now, Math.min(s.original, now + step));
      }
    } catch (Throwable x) {
      failed(x);
    }
  }

  /** Gives every steered cache its own bound back (the agent switched to observe). */
  static synchronized void giveBack() {
    for (Steered s : steered) {
      try {
        if (s.cache.get() != null && s.target.getAndSet(s.original) != s.original) {
          s.bound.set(s.original);
        }
      } catch (Throwable x) {
        failed(x);
      }
    }
    steered = NONE;
    Admission.steering = false;
  }

  /** Returns the number of caches steered now. */
  static int count() {
    return steered.length;
  }

  /** Returns the bound {@code receiver}'s cache is steered to now, or -1 where it is not. */
  static long target(Object receiver) {
    Steered s = find(receiver);
    return s == null ? -1 : s.target.get();
  }

  private static Steered find(Object receiver) {
    for (Steered s : steered) {
      if (s.reachedBy(receiver)) {
        return s;
      }
    }
    return null;
  }

  private static synchronized Steered steered(Bound bound) throws ReflectiveOperationException {
    Object cache = bound.cache();
    Steered[] all = steered;
    int live = 0;
    for (Steered s : all) {
      if (s.cache.get() == cache) {
        return s;
      }
      if (s.cache.get() != null) {
        live++;
      }
    }
    Steered[] next = new Steered[live + 1];
    int i = 0;
    for (Steered s : all) {
      if (s.cache.get() != null) {
        next[i++] = s;
      }
    }
    Steered made = new Steered(bound, bound.maximum());
    next[i] = made;
    steered = next;
    Admission.steering = true;
    return made;
  }

  /** Returns whether the bound of {@code s} may be lowered now (and marks it lowered). */
  private static boolean spaced(Steered s) {
    long at = s.loweredAt.get();
    long now = System.nanoTime();
    return now - at >= SPACING_NANOS && s.loweredAt.compareAndSet(at, now);
  }

  /** Returns one entry's worth in the bound's units: its weights' mean, at least one. */
  private static long step(Bound bound, long size) throws ReflectiveOperationException {
    long entries = bound.entries();
    return entries <= 0 ? 1 : Math.max(1, (size + entries - 1) / entries);
  }

  private static void failed(Throwable x) {
    Log.warnOnce(
        "steer-failed",
        "a cache's size bound could not be steered ("
            + Text.clip(String.valueOf(x), 160)
            + "); its calls are stored and booked, its bound left where it was");
  }
}
