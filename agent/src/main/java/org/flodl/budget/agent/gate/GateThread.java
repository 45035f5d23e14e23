package org.flodl.budget.agent.gate;

import org.flodl.budget.pricing.PriceMemo;

/**
 * What the gate knows of one application thread: whether it is inside the gate now (pricing,
 * probing, recording, declining: woven code it reaches then passes straight through, so the agent
 * never re-enters itself), and, per cache-admit site, how many woven bodies of that site it is
 * inside (when they nest, an override calling {@code super.put}, only the outermost decides), its
 * rows of the {@link Tally} counters, by tally number, and its memo of the last type it priced.
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

  /** Whether the thread is inside the gate. */
  boolean inGate;

  /** The last JDK type this thread priced (and a primitive array's length and price). */
  final PriceMemo prices = new PriceMemo();

  private int[] depth = new int[8];
  private long[][] rows = new long[8][];

  private GateThread() {}

  /** Returns this thread's state. */
  static GateThread current() {
    return CURRENT.get();
  }

  /** Returns this thread's row of tally {@code number}, null before its first count. */
  long[] row(int number) {
    long[][] r = rows;
    return number < r.length ? r[number] : null;
  }

  /** Keeps {@code row} as this thread's row of tally {@code number}; returns it. */
  long[] keepRow(int number, long[] row) {
    if (number >= rows.length) {
      rows = java.util.Arrays.copyOf(rows, Math.max(number + 1, rows.length * 2));
    }
    rows[number] = row;
    return row;
  }

  /** Counts one more woven body of site {@code index} entered; returns the count before. */
  int enter(int index) {
    int[] d = depth;
    if (index >= d.length) {
      d = java.util.Arrays.copyOf(d, Math.max(index + 1, d.length * 2));
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
