package org.flodl.budget.agent.gate;

import org.flodl.budget.pricing.PriceMemo;

/**
 * What the gate knows of one application thread: whether it is inside the gate now (pricing,
 * probing, recording, declining: woven code it reaches then passes straight through, so the agent
 * never re-enters itself), and, per cache-admit site, how many woven bodies of that site it is
 * inside (when they nest, an override calling {@code super.put}, only the outermost decides), the
 * probe that picks its cell of every {@link Tally}, and its memo of the last type it priced. It
 * lives in the thread's own {@link ThreadLocal} map and dies with the thread: nothing of it is
 * registered anywhere, so a virtual thread that decides once leaves nothing behind (while it lives:
 * this object, its memo and the thread's map entry, and a small array once it enters a woven body;
 * a put and evict at a call site on a new virtual thread allocates 314 bytes in the agent, its
 * value's 40-byte holding included).
 */
final class GateThread {
  // An anonymous class, not ThreadLocal.withInitial(lambda): the first lambda of a JVM costs its
  // start-up milliseconds the agent need not add.
  private static final ThreadLocal<GateThread> CURRENT =
      new ThreadLocal<GateThread>() {
        @Override
        protected GateThread initialValue() {
          return new GateThread();
        }
      };

  private static final int[] NO_DEPTH = new int[0];

  /** Whether the thread is inside the gate. */
  boolean inGate;

  /** The last JDK type this thread priced (and a primitive array's length and price). */
  final PriceMemo prices = new PriceMemo();

  /** Picks this thread's cell of each {@link Tally}: a hash of the thread, moved on contention. */
  int probe;

  /** What this thread stamps the cells it adds to with: its id, never 0. */
  final long stamp;

  /** The last cell this thread stamped (see {@link Tally}). */
  long[] stamped;

  /** Per body site, the woven bodies entered (none until a body site is: call sites never are). */
  private int[] depth = NO_DEPTH;

  /**
   * What this thread's last admission at a woven body's entry admitted, and the site's index (-1:
   * none), until the body is left: given back at once if the body throws.
   */
  Object admitted;

  int admittedSite = -1;

  /** Whether the decision under way admitted a value it tracks (not one held already). */
  boolean admittedNow;

  /**
   * What the decision under way tracks for the value it admitted: the value (or its copy), or the
   * token a copying cache's entry holds the charge by.
   */
  Object admittedHolder;

  /**
   * The value returned that this thread's last decision at a returned-value point declined (or
   * deferred), until the decline call that follows at once takes it: its {@code return} argument.
   */
  Object declinedReturn;

  /** Whether {@link #declinedReturn} is a future whose decision waits for its completion. */
  boolean deferred;

  private GateThread() {
    long id = Thread.currentThread().getId();
    probe = (int) ((id * 0x9E3779B97F4A7C15L) >>> 32);
    stamp = id + 1;
  }

  /** Returns this thread's state. */
  static GateThread current() {
    return CURRENT.get();
  }

  /** Moves this thread to another cell of every tally (an add there met another thread's). */
  void rehash() {
    int p = probe == 0 ? 0x9E3779B9 : probe; // xorshift, as LongAdder moves a contended thread
    p ^= p << 13;
    p ^= p >>> 17;
    p ^= p << 5;
    probe = p;
  }

  /** Counts one more woven body of site {@code index} entered; returns the count before. */
  int enter(int index) {
    int[] d = depth;
    if (index >= d.length) {
      d = java.util.Arrays.copyOf(d, Math.max(Math.max(index + 1, 4), d.length * 2));
      depth = d;
    }
    return d[index]++;
  }

  /** Counts one woven body of site {@code index} left; returns the count before. */
  int leave(int index) {
    int[] d = depth;
    if (index >= d.length || d[index] == 0) {
      return 0; // an exit without its entry (the engine changed): nothing to give back
    }
    return d[index]--;
  }
}
