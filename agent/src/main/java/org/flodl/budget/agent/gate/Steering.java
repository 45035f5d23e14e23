package org.flodl.budget.agent.gate;

import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Log;

/**
 * The size bounds the budget steers: those of caches with a witness ({@link Witnessed}) that a
 * decline would mislead, where the library's bound can be moved while the cache runs ({@link
 * Bound}). When such a cache's call finds its tier's budget full, its bound is first set to what
 * the cache holds (it stops growing: each new entry evicts one, by the library's policy), and at
 * such calls after, a step lower (one entry, or a 32nd of the bound); an admission on a cache at
 * its steered bound raises it a step, up to the application's own bound. A bound moves at most once
 * every {@value #SPACING_NANOS} ns. The application's own bound is given back to every cache when
 * the agent is switched to observe. The library evicts, with its own cause, on its own executor or
 * at its own next write, and tells its own listeners; the agent changes only the number. Lock-free:
 * each bound is moved by whoever wins its compare-and-set, a race costs one step.
 */
final class Steering {
  /** A steered cache: its bound, the application's own value, and the value the agent set. */
  private static final class Steered {
    final WeakReference<Object> cache;
    final Bound bound;
    final long original;
    final AtomicLong target;

    /** When the bound was last moved ({@link System#nanoTime}). */
    final AtomicLong movedAt = new AtomicLong(System.nanoTime() - SPACING_NANOS);

    /** The receivers that reached it (a manual cache, its map view): admissions there grow it. */
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
  }

  private static final Steered[] NONE = {};

  /**
   * The least time between two moves of one bound: releases follow evictions at the collector's
   * pace, and a library resets its policy's tuning at each new bound (Caffeine's window).
   */
  static final long SPACING_NANOS = 1_000_000_000L;

  /** The steered caches, copied on write (few: one a witnessed cache that filled its tier). */
  private static volatile Steered[] steered = NONE;

  private Steering() {}

  /**
   * Steers the bound of {@code receiver}'s cache one step down, where its tier's budget is full;
   * returns the bound's move in words ({@code "from 1000000 to 212"}), or null where the cache has
   * no bound to steer.
   */
  static String tighten(Bound bound, Object receiver) throws ReflectiveOperationException {
    if (bound == null) {
      return null;
    }
    Steered s = steered(bound);
    s.seen(receiver);
    long size = bound.size();
    long step = step(bound, size);
    long least = bound.least() * step;
    long now = s.target.get();
    long next = Math.max(least, now > size ? size - size / 4 : now - Math.max(step, now / 16));
    if (next < now && spaced(s) && s.target.compareAndSet(now, next)) {
      bound.set(next);
    }
    return "from " + s.original + " to " + s.target.get();
  }

  /**
   * Raises the steered bound of {@code receiver}'s cache one step, up to the application's own,
   * where the cache is at it: an admission there found room in the budget.
   */
  static void admitted(Object receiver) {
    Steered[] all = steered;
    if (all.length == 0 || receiver == null) {
      return;
    }
    for (Steered s : all) {
      if (s.reachedBy(receiver)) {
        try {
          long now = s.target.get();
          long size = s.bound.size();
          long step = step(s.bound, size);
          if (now < s.original && size + step > now && spaced(s)) {
            long next = Math.min(s.original, now + Math.max(step, now / 32));
            if (s.target.compareAndSet(now, next)) {
              s.bound.set(next);
            }
          }
        } catch (Throwable x) {
          failed(x);
        }
        return;
      }
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
  }

  /** Returns the number of caches steered now (tests, the report of the bare flag). */
  static int count() {
    return steered.length;
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
    return made;
  }

  /** Returns whether the bound of {@code s} may move now (and marks it moved). */
  private static boolean spaced(Steered s) {
    long at = s.movedAt.get();
    long now = System.nanoTime();
    return now - at >= SPACING_NANOS && s.movedAt.compareAndSet(at, now);
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
            + "); its calls are admitted unbooked, counted as WOULD_DECLINE");
  }
}
