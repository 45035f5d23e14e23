package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.ReferenceQueue;
import org.flodl.budget.policy.SpinWait;

/**
 * One segment of the {@link Holdings} table: a chained hash table of holdings by the identity of
 * their values, the holdings themselves the chain links, under its own lock: a spin lock (one
 * compare-and-set to take, a release store to give back) rather than a monitor, whose exit is a
 * second atomic operation; the sections it guards are a few loads and stores (a resize rehashes one
 * segment), and a thread that spins long yields. Holdings of collected values are unlinked by the
 * next pass over their bucket; their bytes go back by the releaser, never here. The table doubles
 * as it fills; it halves only in {@link #trim}, off the deciding threads, once it has stayed sparse
 * from one trim to the next, so a cache emptied at an epoch's end and filled again by the next does
 * not rehash its values twice an epoch.
 */
final class HoldingTable {
  private static final int MIN_BUCKETS = 8;

  /** An object no holding refers to. */
  private static final Object NONE = new Object();

  private static final VarHandle LOCK;

  static {
    try {
      LOCK = MethodHandles.lookup().findVarHandle(HoldingTable.class, "lock", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @SuppressWarnings("unused") // through LOCK
  private volatile int lock;

  private final int minBuckets;
  private Holding[] table;
  private int count;

  /** Whether the last {@link #trim} found the table sparse (guarded by the lock). */
  private boolean sparseAtLastTrim;

  /** The resizes made, and the times a thread found the lock taken (guarded by the lock). */
  private int resizes;

  private int waits;

  /** Returns a segment of {@value #MIN_BUCKETS} buckets, which it never shrinks below. */
  HoldingTable() {
    this(MIN_BUCKETS);
  }

  /**
   * Returns a segment of {@code minBuckets} buckets (a power of two), which it never shrinks below:
   * the concurrency tests' one bucket, which doubles at the second holding.
   */
  HoldingTable(int minBuckets) {
    this.minBuckets = minBuckets;
    this.table = new Holding[minBuckets];
  }

  /**
   * Returns whether a new holding of {@code value} was linked: false when one is linked already
   * (the holding, a weak reference, is made only then: a discarded reference still costs the
   * collector).
   */
  boolean link(Object value, int hash, ReferenceQueue<Object> queue, Account account, long bytes) {
    lock();
    try {
      int i = index(hash, table.length);
      if (find(i, value, false) != null) {
        return false;
      }
      Holding h = Holding.of(value, queue, account, bytes);
      h.next = table[i];
      table[i] = h;
      if (++count > table.length) {
        resize(table.length * 2);
      }
      return true;
    } finally {
      unlock();
    }
  }

  /** Returns whether a holding of {@code value} is linked. */
  boolean contains(Object value, int hash) {
    lock();
    try {
      return find(index(hash, table.length), value, false) != null;
    } finally {
      unlock();
    }
  }

  /** Returns the holding of {@code value} linked now, or null (the concurrency tests' view). */
  Holding holding(Object value, int hash) {
    lock();
    try {
      return find(index(hash, table.length), value, false);
    } finally {
      unlock();
    }
  }

  /** Unlinks and returns the holding of {@code value}, or null when none is linked. */
  Holding unlinkValue(Object value, int hash) {
    lock();
    try {
      return find(index(hash, table.length), value, true);
    } finally {
      unlock();
    }
  }

  /**
   * Returns the holding of {@code value} in bucket {@code i}, unlinked from it when {@code unlink},
   * and unlinks the holdings of collected values met on the way (the releaser hands their bytes
   * back, not this).
   */
  private Holding find(int i, Object value, boolean unlink) {
    Holding prev = null;
    for (Holding e = table[i]; e != null; ) {
      Holding next = e.next;
      boolean found = e.refersTo(value);
      if (found && !unlink) {
        return e;
      }
      if (found || e.refersTo(null)) {
        if (prev == null) {
          table[i] = next;
        } else {
          prev.next = next;
        }
        count--;
        if (found) {
          // Released by a site: marked, so that the releaser passes it by should the collector
          // enqueue it anyway (see Holding#RELEASED).
          Holding.NEXT.setRelease(e, Holding.RELEASED);
          return e;
        }
        e.next = null;
      } else {
        prev = e;
      }
      e = next;
    }
    return null;
  }

  /** Unlinks every holding whose value was collected. */
  void unlinkCollected() {
    lock();
    try {
      for (int i = 0; i < table.length; i++) {
        find(i, NONE, false); // a value no holding refers to: the whole bucket is walked
      }
      shrinkIfSparse();
    } finally {
      unlock();
    }
  }

  /**
   * Halves the table while it holds under one holding in eight buckets, if it did at the last trim
   * too (the periodic pass of the probe thread): a table emptied for good gives its buckets back
   * within two passes, one refilled soon after keeps them.
   */
  void trim() {
    lock();
    try {
      boolean sparse = count < table.length >>> 3 && table.length > minBuckets;
      if (sparse && sparseAtLastTrim) {
        shrinkIfSparse();
        sparse = false;
      }
      sparseAtLastTrim = sparse;
    } finally {
      unlock();
    }
  }

  /** Adds the holdings linked to {@code c[0]} and the buckets to {@code c[1]}. */
  void census(long[] c) {
    lock();
    try {
      c[0] += count;
      c[1] += table.length;
    } finally {
      unlock();
    }
  }

  /** Returns the number of holdings linked whose values are not collected. */
  int live() {
    lock();
    try {
      int n = 0;
      for (Holding head : table) {
        for (Holding e = head; e != null; e = e.next) {
          if (!e.refersTo(null)) {
            n++;
          }
        }
      }
      return n;
    } finally {
      unlock();
    }
  }

  /** Returns the resizes made (the concurrency tests' view). */
  int resizes() {
    lock();
    try {
      return resizes;
    } finally {
      unlock();
    }
  }

  /** Returns the times a thread found the lock taken and waited for it (the same). */
  int waits() {
    lock();
    try {
      return waits;
    } finally {
      unlock();
    }
  }

  private void lock() {
    if (!LOCK.compareAndSet(this, 0, 1)) {
      contended();
    }
  }

  private void contended() {
    long since = 0;
    for (int tries = 0;
        !((int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1));
        tries++) {
      since = SpinWait.pause(tries, since);
    }
    waits++;
  }

  private void unlock() {
    LOCK.setRelease(this, 0);
  }

  /**
   * Rebuilds the table with {@code buckets} buckets, rehashing each live value by its identity hash
   * again and dropping the holdings of collected ones: doubled past one holding a bucket on average
   * (chains stay short and the buckets cost 4 to 8 bytes a holding), halved under one in eight by
   * the sweep and by {@link #trim} (a table that held many values does not keep its buckets).
   */
  private void resize(int buckets) {
    resizes++;
    Holding[] old = table;
    Holding[] rebuilt = new Holding[buckets];
    for (Holding head : old) {
      Holding e = head;
      while (e != null) {
        Holding next = e.next;
        Object v = e.get();
        if (v == null) {
          e.next = null;
          count--;
        } else {
          int i = index(System.identityHashCode(v), rebuilt.length);
          e.next = rebuilt[i];
          rebuilt[i] = e;
        }
        e = next;
      }
    }
    table = rebuilt;
  }

  /** Halves the table while it holds under one holding in eight buckets (down to the least). */
  private void shrinkIfSparse() {
    int size = table.length;
    while (count < size >>> 3 && size > minBuckets) {
      size >>>= 1;
    }
    if (size != table.length) {
      resize(size);
    }
  }

  private static int index(int hash, int length) {
    // The low bits chose the segment; the bucket comes from the bits above them.
    return (hash >>> Holdings.SEGMENT_BITS) & (length - 1);
  }
}
