package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A row of counters that many threads add to and one reader drains, without an atomic operation on
 * the adding side: each thread adds to its own row (a plain read and an opaque write, since only
 * that thread writes it), and {@link #drain} sums the rows and returns what was added since the
 * last drain. The counts are monotone per thread and never reset by the reader, so an add that
 * races a drain is counted in this drain or the next, never lost or counted twice. A row of a
 * thread that has ended is folded into the retired totals at the next drain, or by {@link
 * #retireEnded}, and dropped, so short-lived threads do not accumulate rows. A thread finds its row
 * on its {@link GateThread}, by the tally's number: the deciding thread has looked that up already,
 * so a count costs no thread-local lookup of its own. The thread holds that row as long as it
 * lives: a tally belongs to a site or the host share of the one engine a JVM installs, so rows of
 * tallies that are gone are left only where a test makes engine after engine (a few hundred bytes a
 * thread each).
 */
final class Tally {
  private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
  private static final AtomicInteger NUMBERS = new AtomicInteger();

  private final int width;

  /** This tally's number: its row's index on each thread's {@link GateThread}. */
  private final int number = NUMBERS.getAndIncrement();

  private final List<Row> rows = new ArrayList<>(); // guarded by this
  private final long[] retired;
  private final long[] drained;

  /** Returns a tally of {@code width} counters. */
  Tally(int width) {
    this.width = width;
    this.retired = new long[width];
    this.drained = new long[width];
  }

  /** Returns the calling thread's row, for a caller that adds to several counters at once. */
  long[] row() {
    return row(GateThread.current());
  }

  /** Returns the row of {@code t}, the calling thread's state. */
  long[] row(GateThread t) {
    long[] r = t.row(number);
    return r != null ? r : t.keepRow(number, register());
  }

  /**
   * Adds {@code x} to counter {@code slot} of {@code row}, the calling thread's own; returns it.
   */
  static long add(long[] row, int slot, long x) {
    long v = row[slot] + x;
    SLOT.setOpaque(row, slot, v);
    return v;
  }

  /** Reads counter {@code slot} of {@code row}, which another thread may be writing. */
  static long read(long[] row, int slot) {
    return (long) SLOT.getOpaque(row, slot);
  }

  /** Sets counter {@code slot} of {@code row} to {@code v} atomically; returns what it was. */
  static long swap(long[] row, int slot, long v) {
    return (long) SLOT.getAndSet(row, slot, v);
  }

  /**
   * Sets counter {@code slot} of {@code row} from {@code expected} to {@code v}, if it was that.
   */
  static boolean swap(long[] row, int slot, long expected, long v) {
    return SLOT.compareAndSet(row, slot, expected, v);
  }

  /** Adds {@code x} to counter {@code slot} on the calling thread's row. */
  void add(int slot, long x) {
    long[] row = row();
    SLOT.setOpaque(row, slot, row[slot] + x);
  }

  /** Adds {@code a} to counter {@code slotA} and {@code b} to {@code slotB}: one row lookup. */
  void add(int slotA, long a, int slotB, long b) {
    long[] row = row();
    SLOT.setOpaque(row, slotA, row[slotA] + a);
    SLOT.setOpaque(row, slotB, row[slotB] + b);
  }

  /** Returns what each counter gained since the last drain. */
  long[] drain() {
    return drain(null);
  }

  /** A look at every row, before a drain counts it (and may drop the row of an ended thread). */
  interface RowVisitor {
    void visit(long[] row);
  }

  /**
   * Returns what each counter gained since the last drain, after {@code visitor} (if any) has seen
   * every row, the rows of ended threads included, once each.
   */
  synchronized long[] drain(RowVisitor visitor) {
    long[] total = retired.clone();
    for (Iterator<Row> it = rows.iterator(); it.hasNext(); ) {
      Row r = it.next();
      // Seen ended before the visit: the visitor then sees the row final, its last adds included.
      boolean ended = r.ended();
      if (visitor != null) {
        visitor.visit(r.counts);
      }
      for (int i = 0; i < width; i++) {
        long v = (long) SLOT.getOpaque(r.counts, i);
        total[i] += v;
        if (ended) {
          retired[i] += v;
        }
      }
      if (ended) {
        it.remove();
      }
    }
    long[] delta = new long[width];
    for (int i = 0; i < width; i++) {
      delta[i] = total[i] - drained[i];
      drained[i] = total[i];
    }
    return delta;
  }

  /**
   * Folds the rows of ended threads into the retired totals and drops them, after {@code visitor}
   * has seen each; returns how many were dropped. What {@link #drain} and {@link #total} return
   * does not change. For a tally drained seldom or never (a site's, while nothing records): without
   * it, each thread that ever added would leave its row behind.
   */
  synchronized int retireEnded(RowVisitor visitor) {
    int kept = 0;
    for (int j = 0; j < rows.size(); j++) { // compacted in place: one pass, however many ended
      Row r = rows.get(j);
      if (r.ended()) {
        visitor.visit(r.counts);
        for (int i = 0; i < width; i++) {
          retired[i] += (long) SLOT.getOpaque(r.counts, i);
        }
      } else {
        rows.set(kept++, r);
      }
    }
    int dropped = rows.size() - kept;
    rows.subList(kept, rows.size()).clear();
    return dropped;
  }

  /**
   * Returns each counter's total now: what ended threads added and what every row holds, read as
   * the rows' owners last wrote them (the adding side takes no lock for it).
   */
  synchronized long[] total() {
    long[] total = retired.clone();
    for (Row r : rows) {
      for (int i = 0; i < width; i++) {
        total[i] += (long) SLOT.getOpaque(r.counts, i);
      }
    }
    return total;
  }

  /** Returns each counter's total up to the last drain. */
  synchronized long[] drained() {
    return drained.clone();
  }

  /** Returns the number of rows kept (threads that added and have not been seen ended). */
  synchronized int rows() {
    return rows.size();
  }

  private synchronized long[] register() {
    long[] counts = new long[width];
    rows.add(new Row(Thread.currentThread(), counts));
    return counts;
  }

  private static final class Row {
    final WeakReference<Thread> owner;
    final long[] counts;

    Row(Thread owner, long[] counts) {
      this.owner = new WeakReference<>(owner);
      this.counts = counts;
    }

    /** Whether the owner has ended: then its row is final, and read whole (happens-after). */
    boolean ended() {
      Thread t = owner.get();
      return t == null || !t.isAlive();
    }
  }
}
