package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.policy.TierLedger;

/**
 * What the caches retain, by identity: each admitted value is one {@link Holding}, a weak
 * reference to it that carries the bytes reserved for it, so a release site that sees the value
 * (as an argument or a return value) hands its bytes back, and a value the cache drops without a
 * release site hands them back when it is collected (the reference is enqueued and a daemon
 * thread, {@code flodl-budget-release}, releases it).
 *
 * <p>The holdings live in an identity table of their own: {@value #SEGMENTS} segments, each a
 * small chained hash table under its own lock, the holdings themselves the chain links. One
 * allocation per admission (the holding), none per release. Unlinking a holding is what releases
 * it: whichever comes first, the release site or the collector, unlinks it and hands the bytes
 * back, and the other finds it gone. That makes each release exactly once without a flag, and a
 * holding that is unlinked becomes unreachable, so it is never enqueued later.
 */
final class Holdings {
  /** Cause recorded when a release site saw the value. */
  static final String RELEASE_SITE = "RELEASE_SITE";
  /** Cause recorded when the value was garbage collected. */
  static final String COLLECTED = "COLLECTED";

  private static final int SEGMENTS = 64;

  private final Segment[] segments = new Segment[SEGMENTS];
  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
  private volatile Thread releaser;

  Holdings() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new Segment();
    }
  }

  /**
   * Records that {@code value} holds {@code bytes} reserved in {@code ledger} for {@code site};
   * returns false (and gives the bytes back) when the same object is held already: one charge is
   * enough.
   */
  boolean track(Object value, TierLedger ledger, long bytes, CacheSite site) {
    if (releaser == null) {
      startReleaser();
    }
    int hash = System.identityHashCode(value);
    if (!segment(hash).link(value, hash, collected, ledger, bytes, site)) {
      ledger.giveBack(bytes);
      return false;
    }
    return true;
  }

  /** Returns whether {@code value} is held (admitted, and neither released nor collected). */
  boolean holds(Object value) {
    if (value == null) {
      return false;
    }
    int hash = System.identityHashCode(value);
    return segment(hash).contains(value, hash);
  }

  /** Releases what {@code value} holds, if anything; returns the bytes handed back. */
  long release(Object value) {
    if (value == null) {
      return 0;
    }
    int hash = System.identityHashCode(value);
    Holding holding = segment(hash).unlinkValue(value, hash);
    return holding == null ? 0 : holding.release(RELEASE_SITE);
  }

  /** Returns the number of values held (those collected and not yet drained included). */
  int size() {
    int n = 0;
    for (Segment s : segments) {
      n += s.count();
    }
    return n;
  }

  private Segment segment(int hash) {
    return segments[hash & (SEGMENTS - 1)];
  }

  private synchronized void startReleaser() {
    if (releaser != null) {
      return;
    }
    Thread t = new Thread(new Runnable() {
      @Override
      public void run() {
        drain();
      }
    }, "flodl-budget-release");
    t.setDaemon(true);
    releaser = t;
    t.start();
  }

  private void drain() {
    while (true) {
      try {
        Reference<?> r = collected.remove();
        if (r instanceof Holding) {
          Holding h = (Holding) r;
          if (segment(h.hash).unlink(h)) {
            h.release(COLLECTED);
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        Log.warnOnce("releaser", "releasing a collected value failed (" + t + "); going on");
      }
    }
  }

  /**
   * One chained hash table of holdings by the identity of their values, under its own lock: a
   * spin lock (one compare-and-set to take, a release store to give back) rather than a monitor,
   * whose exit is a second atomic operation; the sections it guards are a few loads and stores
   * (a growth rehashes one segment), and a thread that spins long yields.
   */
  private static final class Segment {
    private static final VarHandle LOCK;

    static {
      try {
        LOCK = MethodHandles.lookup().findVarHandle(Segment.class, "lock", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    @SuppressWarnings("unused") // through LOCK
    private volatile int lock;
    private Holding[] table = new Holding[8];
    private int count;

    /**
     * Links a new holding of {@code value} unless one is linked already (the holding, a weak
     * reference, is made only then: a discarded reference still costs the collector).
     */
    boolean link(Object value, int hash, ReferenceQueue<Object> queue, TierLedger ledger,
        long bytes, CacheSite site) {
      lock();
      try {
        int i = index(hash, table.length);
        for (Holding e = table[i]; e != null; e = e.next) {
          if (e.hash == hash && e.get() == value) {
            return false;
          }
        }
        Holding h = new Holding(value, hash, queue, ledger, bytes, site);
        h.next = table[i];
        table[i] = h;
        if (++count > table.length - (table.length >>> 2)) {
          grow();
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
        for (Holding e = table[index(hash, table.length)]; e != null; e = e.next) {
          if (e.hash == hash && e.get() == value) {
            return true;
          }
        }
        return false;
      } finally {
        unlock();
      }
    }

    /** Unlinks and returns the holding of {@code value}, or null when none is linked. */
    Holding unlinkValue(Object value, int hash) {
      lock();
      try {
        int i = index(hash, table.length);
        Holding prev = null;
        for (Holding e = table[i]; e != null; prev = e, e = e.next) {
          if (e.hash == hash && e.get() == value) {
            unlinkAfter(prev, e, i);
            return e;
          }
        }
        return null;
      } finally {
        unlock();
      }
    }

    /** Unlinks {@code h} itself; returns false when it was not linked (released already). */
    boolean unlink(Holding h) {
      lock();
      try {
        int i = index(h.hash, table.length);
        Holding prev = null;
        for (Holding e = table[i]; e != null; prev = e, e = e.next) {
          if (e == h) {
            unlinkAfter(prev, e, i);
            return true;
          }
        }
        return false;
      } finally {
        unlock();
      }
    }

    int count() {
      lock();
      try {
        return count;
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
      int spins = 0;
      while (!((int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1))) {
        if (++spins < 100) {
          Thread.onSpinWait();
        } else {
          Thread.yield();
        }
      }
    }

    private void unlock() {
      LOCK.setRelease(this, 0);
    }

    private void unlinkAfter(Holding prev, Holding e, int i) {
      if (prev == null) {
        table[i] = e.next;
      } else {
        prev.next = e.next;
      }
      e.next = null;
      count--;
    }

    private void grow() {
      Holding[] old = table;
      Holding[] bigger = new Holding[old.length * 2];
      for (Holding head : old) {
        Holding e = head;
        while (e != null) {
          Holding next = e.next;
          int i = index(e.hash, bigger.length);
          e.next = bigger[i];
          bigger[i] = e;
          e = next;
        }
      }
      table = bigger;
    }

    private static int index(int hash, int length) {
      // The low bits chose the segment; the bucket comes from the bits above them.
      return (hash >>> 6) & (length - 1);
    }
  }

  /**
   * One admitted value: a weak reference to it, its identity hash, the bytes reserved for it and
   * where, and the next holding of its bucket (guarded by the segment's lock).
   */
  private static final class Holding extends WeakReference<Object> {
    final int hash;
    private final TierLedger ledger;
    private final long bytes;
    private final CacheSite site;
    Holding next;

    Holding(Object value, int hash, ReferenceQueue<Object> queue, TierLedger ledger, long bytes,
        CacheSite site) {
      super(value, queue);
      this.hash = hash;
      this.ledger = ledger;
      this.bytes = bytes;
      this.site = site;
    }

    /** Hands the bytes back; called once, by whoever unlinked this holding. */
    long release(String cause) {
      ledger.giveBack(bytes);
      site.released(bytes);
      if (Recorder.on()) {
        try {
          ReleaseEvent.emit(site.name(), Labels.of(ledger.tier()), bytes, cause, ledger.held());
        } catch (Throwable ignored) {
          // Recording is best effort; the books are already right.
        }
      }
      return bytes;
    }
  }
}
