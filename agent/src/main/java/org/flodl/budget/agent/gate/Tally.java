package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counters that many threads add to and one reader drains, striped over cells as {@link
 * java.util.concurrent.atomic.LongAdder} is: a thread adds to the cell its {@link GateThread#probe}
 * picks, with one atomic operation; a thread that finds another adding to its cell (the cell's
 * stamp, see {@link #share}) moves to another cell and grows the table, doubling it up to {@link
 * #MAX_CELLS}, a small multiple of the CPUs. Nothing is kept per thread and nothing registers on a
 * thread's first add, so a million short-lived (virtual) threads cost what a few do; no add ever
 * waits, for a reader or for another adder. {@link #drain} sums the cells and returns what was
 * added since the last drain: the counters are monotone and never reset by the reader, so an add
 * that races a drain is counted in this drain or the next, never lost or counted twice. A table
 * that grows keeps its cells (the new one holds the old cells and new, empty ones), so an add to a
 * cell of the table a thread read before the growth still counts.
 */
final class Tally {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
  private static final VarHandle GROWING;

  static {
    try {
      GROWING = MethodHandles.lookup().findVarHandle(Tally.class, "growing", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The most cells a tally grows to: twice the CPUs, rounded up to a power of two. */
  static final int MAX_CELLS =
      Integer.highestOneBit(Math.max(1, Runtime.getRuntime().availableProcessors()) * 4 - 1);

  /** Longs before a cell's counters (and after them): two cells' counters share no cache line. */
  private static final int PAD = 8;

  /** Where a cell keeps the stamp of the last thread that added to it, just before its counters. */
  private static final int OWNER = PAD - 1;

  private final int width;
  private volatile long[][] cells;

  @SuppressWarnings("unused") // through GROWING: 1 while a thread grows the table
  private volatile int growing;

  private final long[] drained; // guarded by this

  /** Returns a tally of {@code width} counters. */
  Tally(int width) {
    this.width = width;
    this.drained = new long[width];
    this.cells = new long[][] {newCell()};
  }

  private long[] newCell() {
    return new long[PAD + width + PAD];
  }

  /** Returns the cell {@code t} (the calling thread's state) adds to. */
  long[] cell(GateThread t) {
    long[][] c = cells;
    return c[t.probe & (c.length - 1)];
  }

  /**
   * Adds {@code x} to counter {@code slot} of {@code cell}, the cell {@link #cell} gave {@code t};
   * returns the counter's value after this add (each add sees a value of its own).
   */
  long add(GateThread t, long[] cell, int slot, long x) {
    share(t, cell);
    return (long) SLOT.getAndAdd(cell, PAD + slot, x) + x;
  }

  /**
   * Watches {@code cell} for another thread: each thread stamps the cell it adds to, and a thread
   * that finds its own cell stamped by another since its last add there moves ({@link #contended}).
   * Two threads on one cell contend even when they add to different counters of it (one admits, the
   * other releases: the same cache lines), which a failed compare-and-set on one counter would not
   * show. A thread's first add to a cell only stamps it, so the stamp of a thread that has ended
   * moves nobody.
   */
  private void share(GateThread t, long[] cell) {
    long owner = (long) SLOT.getOpaque(cell, OWNER);
    if (owner != t.stamp) {
      if (t.stamped == cell) {
        contended(t);
      }
      SLOT.setOpaque(cell, OWNER, t.stamp);
      t.stamped = cell;
    }
  }

  /** Adds {@code x} to counter {@code slot} of {@code cell}, without watching for contention. */
  static void addTo(long[] cell, int slot, long x) {
    SLOT.getAndAdd(cell, PAD + slot, x);
  }

  /** Reads counter {@code slot} of {@code cell}, which other threads may be writing. */
  static long read(long[] cell, int slot) {
    return (long) SLOT.getOpaque(cell, PAD + slot);
  }

  /**
   * Sets counter {@code slot} of {@code cell} from {@code expected} to {@code v}, if it was that.
   */
  static boolean swap(long[] cell, int slot, long expected, long v) {
    return SLOT.compareAndSet(cell, PAD + slot, expected, v);
  }

  /**
   * Another thread adds to {@code t}'s cell: {@code t} moves to another cell, and the table doubles
   * if it is under {@link #MAX_CELLS} and no other thread is growing it (then this one does not
   * wait: it adds where it is).
   */
  private void contended(GateThread t) {
    t.rehash();
    long[][] c = cells;
    if (c.length >= MAX_CELLS || !GROWING.compareAndSet(this, 0, 1)) {
      return;
    }
    try {
      if (cells == c) {
        long[][] grown = java.util.Arrays.copyOf(c, c.length * 2);
        for (int i = c.length; i < grown.length; i++) {
          grown[i] = newCell();
        }
        cells = grown;
      }
    } finally {
      GROWING.setVolatile(this, 0);
    }
  }

  /** Returns what each counter gained since the last drain. */
  long[] drain() {
    return drain(null);
  }

  /** A look at every cell, before a drain counts it. */
  interface CellVisitor {
    void visit(long[] cell);
  }

  /**
   * Returns what each counter gained since the last drain, after {@code visitor} (if any) has seen
   * every cell once.
   */
  synchronized long[] drain(CellVisitor visitor) {
    long[][] c = cells;
    if (visitor != null) {
      for (long[] cell : c) {
        visitor.visit(cell);
      }
    }
    long[] total = sum(c);
    long[] delta = new long[width];
    for (int i = 0; i < width; i++) {
      delta[i] = total[i] - drained[i];
      drained[i] = total[i];
    }
    return delta;
  }

  /**
   * Returns each counter's total now, as the cells hold it (no lock: an add under way is counted or
   * not).
   */
  long[] total() {
    return sum(cells);
  }

  /** Returns counter {@code slot}'s total now. */
  long total(int slot) {
    long n = 0;
    for (long[] cell : cells) {
      n += (long) SLOT.getOpaque(cell, PAD + slot);
    }
    return n;
  }

  private long[] sum(long[][] c) {
    long[] total = new long[width];
    for (long[] cell : c) {
      for (int i = 0; i < width; i++) {
        total[i] += (long) SLOT.getOpaque(cell, PAD + i);
      }
    }
    return total;
  }

  /** Returns each counter's total up to the last drain. */
  synchronized long[] drained() {
    return drained.clone();
  }

  /** Returns the number of cells (at most {@link #MAX_CELLS}, however many threads added). */
  int cells() {
    return cells.length;
  }
}
