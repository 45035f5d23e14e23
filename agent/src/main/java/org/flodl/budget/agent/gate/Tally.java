package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.flodl.budget.policy.SpinWait;

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
 *
 * <p>The first {@code pairs} pairs of counters are a count and its bytes (counters {@code 2j} and
 * {@code 2j + 1}), which {@link #addPair} adds to with one atomic add: in a cell each pair is a
 * packed word (the count in its low {@value #COUNT_BITS} bits, the bytes above them) and two wide
 * counters it is carried into before either field can overflow. The adder that takes a field past
 * half its width carries the word (see {@link #carry}), inside the cell's sequence (odd while a
 * carry is under way), and a reader reads a cell again when a carry overlapped its read; an adder
 * never waits for one. A single add of more than {@value #PACKED_BYTES_MAX} bytes goes to the wide
 * bytes counter straight.
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

  /** Where a cell keeps its carries' sequence: odd while a pair's word is carried. */
  private static final int SEQ = PAD - 2;

  /** The bits of a pair's packed word that count; the bytes are above them. */
  static final int COUNT_BITS = 24;

  private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;

  /**
   * The most bytes one add packs. The bytes field is carried once it reaches 2^39 (the word's sign
   * bit) and overflows at 2^40: 2,048 adds of this size can land between.
   */
  static final long PACKED_BYTES_MAX = (1L << 28) - 1;

  private final int width;
  private final int pairs;
  private final int maxCells;

  /** A packed count this high is carried: half its field, the rest headroom for adds meanwhile. */
  private final long countCarry;

  /** A packed word with a bit at or above this one is carried: 63 (bytes of 2^39), the sign bit. */
  private final int carryBit;

  private volatile long[][] cells;

  @SuppressWarnings("unused") // through GROWING: 1 while a thread grows the table
  private volatile int growing;

  private final long[] drained; // guarded by this

  /** Returns a tally of {@code width} counters, none of them pairs. */
  Tally(int width) {
    this(width, 0);
  }

  /**
   * Returns a tally of {@code width} counters, the first {@code 2 * pairs} of them pairs of a count
   * and its bytes (see {@link #addPair}).
   */
  Tally(int width, int pairs) {
    this(width, pairs, MAX_CELLS, 1L << (COUNT_BITS - 1), 1L << (63 - COUNT_BITS));
  }

  /**
   * Returns a tally that grows to {@code maxCells} cells (a power of two) and carries a pair's word
   * once its count reaches {@code countCarry} or its bytes {@code bytesCarry} (a power of two): the
   * concurrency tests' marks, which put every thread on one cell and carry within a few adds.
   */
  Tally(int width, int pairs, int maxCells, long countCarry, long bytesCarry) {
    if (pairs < 0 || 2 * pairs > width) {
      throw new IllegalArgumentException(pairs + " pairs of " + width + " counters");
    }
    this.width = width;
    this.pairs = pairs;
    this.maxCells = maxCells;
    this.countCarry = countCarry;
    this.carryBit = COUNT_BITS + Long.numberOfTrailingZeros(bytesCarry);
    this.drained = new long[width];
    this.cells = new long[][] {newCell()};
  }

  private long[] newCell() {
    return new long[PAD + width + pairs + PAD]; // a pair is three words: packed, count, bytes
  }

  /** Returns where counter {@code slot}, not one of a pair, lives in a cell. */
  private int at(int slot) {
    return PAD + pairs + slot; // after the pairs' three words each: 3 * pairs + (slot - 2 * pairs)
  }

  /** Returns the cell {@code t} (the calling thread's state) adds to. */
  long[] cell(GateThread t) {
    long[][] c = cells;
    return c[t.probe & (c.length - 1)];
  }

  /**
   * Adds {@code x} to counter {@code slot} (not one of a pair) of {@code cell}, the cell {@link
   * #cell} gave {@code t}; returns the counter's value after this add (each add sees a value of its
   * own).
   */
  long add(GateThread t, long[] cell, int slot, long x) {
    share(t, cell);
    return (long) SLOT.getAndAdd(cell, at(slot), x) + x;
  }

  /**
   * Adds one to the count of pair {@code pair} of {@code cell}, the cell {@link #cell} gave {@code
   * t}, and {@code bytes} (at least 0) to its bytes, with one atomic add. Returns, when {@code
   * counted}, the count after this add in this cell (each add sees a count of its own), or -1 when
   * a carry overlapped the add (the count cannot be told without waiting for it); 0 when not {@code
   * counted}.
   */
  long addPair(GateThread t, long[] cell, int pair, long bytes, boolean counted) {
    share(t, cell);
    int at = pairAt(pair);
    long seq = counted ? (long) SLOT.getAcquire(cell, SEQ) : 0;
    long x = 1;
    if (bytes >= 0 && bytes <= PACKED_BYTES_MAX) {
      x += bytes << COUNT_BITS;
    } else {
      SLOT.getAndAdd(cell, at + 2, bytes);
    }
    long word = (long) SLOT.getAndAdd(cell, at, x) + x;
    if ((word >>> carryBit) != 0 || (word & COUNT_MASK) >= countCarry) {
      carry(cell, at);
    }
    return counted ? countFor(cell, at, seq, word) : 0;
  }

  /** Returns where pair {@code pair}'s three words (packed, count, bytes) live in a cell. */
  private static int pairAt(int pair) {
    return PAD + 3 * pair;
  }

  /**
   * Returns the count of the pair at {@code at} in {@code cell} for its packed {@code word} read
   * after the cell's sequence was {@code seq}, or -1 when a carry overlapped (the sequence was odd
   * or moved since).
   */
  private static long countFor(long[] cell, int at, long seq, long word) {
    long carried = (long) SLOT.getAcquire(cell, at + 1);
    if ((seq & 1) != 0 || (long) SLOT.getAcquire(cell, SEQ) != seq) {
      return -1;
    }
    return carried + (word & COUNT_MASK);
  }

  /**
   * Moves the packed word at {@code at} into its pair's wide counters, inside the cell's sequence;
   * when another thread carries in this cell now, does nothing (the next add past the mark carries:
   * the fields have as much again as headroom).
   */
  private static void carry(long[] cell, int at) {
    long seq = (long) SLOT.getVolatile(cell, SEQ);
    if ((seq & 1) != 0 || !SLOT.compareAndSet(cell, SEQ, seq, seq + 1)) {
      return;
    }
    try {
      long word = (long) SLOT.getVolatile(cell, at);
      SLOT.getAndAdd(cell, at, -word); // what was added since stays in the word
      SLOT.getAndAdd(cell, at + 1, word & COUNT_MASK);
      SLOT.getAndAdd(cell, at + 2, word >>> COUNT_BITS);
    } finally {
      SLOT.setVolatile(cell, SEQ, seq + 2);
    }
  }

  /**
   * Returns the count of pair {@code pair} in {@code cell} now, or -1 when a carry is under way
   * there (see {@link #addPair}): a deciding thread does not wait for it.
   */
  static long countNow(long[] cell, int pair) {
    int at = pairAt(pair);
    long seq = (long) SLOT.getAcquire(cell, SEQ);
    return countFor(cell, at, seq, (long) SLOT.getAcquire(cell, at));
  }

  /** {@link #countNow}, waiting out a carry under way (not for a deciding thread). */
  static long count(long[] cell, int pair) {
    long since = 0;
    for (int tries = 0; ; tries++) {
      long n = countNow(cell, pair);
      if (n >= 0) {
        return n;
      }
      since = SpinWait.pause(tries, since); // a reader waits out the carry
    }
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

  /**
   * Adds {@code x} to counter {@code slot} (not one of a pair) of {@code cell}, without watching
   * for contention.
   */
  void addTo(long[] cell, int slot, long x) {
    SLOT.getAndAdd(cell, at(slot), x);
  }

  /**
   * Reads counter {@code slot} (not one of a pair) of {@code cell}, which others may be writing.
   */
  long read(long[] cell, int slot) {
    return (long) SLOT.getOpaque(cell, at(slot));
  }

  /**
   * Sets counter {@code slot} (not one of a pair) of {@code cell} from {@code expected} to {@code
   * v}, if it was that.
   */
  boolean swap(long[] cell, int slot, long expected, long v) {
    return SLOT.compareAndSet(cell, at(slot), expected, v);
  }

  /**
   * Another thread adds to {@code t}'s cell: {@code t} moves to another cell, and the table doubles
   * if it is under its most cells ({@link #MAX_CELLS}) and no other thread is growing it (then this
   * one does not wait: it adds where it is).
   */
  private void contended(GateThread t) {
    t.rehash();
    long[][] c = cells;
    if (c.length >= maxCells || !GROWING.compareAndSet(this, 0, 1)) {
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
    return sum(cells)[slot];
  }

  private long[] sum(long[][] c) {
    long[] total = new long[width];
    long[] one = new long[width];
    for (long[] cell : c) {
      read(cell, one);
      for (int i = 0; i < width; i++) {
        total[i] += one[i];
      }
    }
    return total;
  }

  /**
   * Reads every counter of {@code cell} into {@code into}, read again while a carry overlaps (a
   * carry is a few atomic adds: this reader spins, then yields, meanwhile).
   */
  private void read(long[] cell, long[] into) {
    long since = 0;
    for (int tries = 0; ; tries++) {
      long seq = (long) SLOT.getAcquire(cell, SEQ);
      if ((seq & 1) == 0) {
        for (int j = 0; j < pairs; j++) {
          int at = pairAt(j);
          long word = (long) SLOT.getOpaque(cell, at);
          into[2 * j] = (long) SLOT.getOpaque(cell, at + 1) + (word & COUNT_MASK);
          into[2 * j + 1] = (long) SLOT.getOpaque(cell, at + 2) + (word >>> COUNT_BITS);
        }
        for (int i = 2 * pairs; i < width; i++) {
          into[i] = (long) SLOT.getOpaque(cell, at(i));
        }
        VarHandle.acquireFence();
        if ((long) SLOT.getOpaque(cell, SEQ) == seq) {
          return;
        }
      }
      since = SpinWait.pause(tries, since); // a carry is under way: wait it out
    }
  }

  /** Returns each counter's total up to the last drain. */
  synchronized long[] drained() {
    return drained.clone();
  }

  /** Returns the index of {@code cell} in the table, or -1 (the concurrency tests' view). */
  int indexOf(long[] cell) {
    long[][] c = cells;
    for (int i = 0; i < c.length; i++) {
      if (c[i] == cell) {
        return i;
      }
    }
    return -1;
  }

  /** Returns the carries made in every cell so far (each moves the cell's sequence on by two). */
  long carries() {
    long n = 0;
    for (long[] cell : cells) {
      n += (long) SLOT.getVolatile(cell, SEQ) >>> 1;
    }
    return n;
  }

  /** Returns the number of cells (at most {@link #MAX_CELLS}, however many threads added). */
  int cells() {
    return cells.length;
  }
}
