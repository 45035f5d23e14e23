package org.flodl.budget.agent.gate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.policy.TierLedger;

/**
 * What the caches retain, by identity: each admitted value is one {@link Holding}, a weak
 * reference to it that carries the bytes reserved for it, so a release site that sees the value
 * (as an argument or a return value) hands its bytes back, and a value the cache drops without a
 * release site hands them back when it is collected (the reference is enqueued and a daemon
 * thread, {@code flodl-budget-release}, releases it).
 *
 * <p>Each release happens exactly once. A release site finds the holding by its live value,
 * unlinks it and marks its link released, keeping the value alive until it has handed the bytes
 * back. The collector enqueues only a holding whose value it found dead, which no release site
 * can match any more (a release site holds the value it looks up); it may still enqueue a
 * holding a site released (a young collection reaches garbage through old garbage), and the
 * releaser passes by the marked ones. No field is added for the mark: it is the link, which an
 * unlinked holding no longer needs.
 *
 * <p>The holdings live in an identity table of their own: {@value #SEGMENTS} segments by the
 * value's identity hash, each a chained hash table under its own lock, the holdings themselves
 * the chain links. A holding is 40 bytes (a weak reference, 28, and its account, bytes and link,
 * 4 each: the hash is not kept, a resize reads it from the value again), and the buckets 4 to 8
 * bytes more a value (a table doubles past one holding a bucket and halves under one in eight). A
 * collected value's holding is unlinked by the next pass over its bucket, or by the releaser's
 * sweep once the collected holdings are a quarter of what a sweep walks (the linked holdings and
 * the buckets). One allocation per admission (the holding), none per release.
 *
 * <p>Two threads admitting at once take different segments' locks, but the segment a value
 * hashes to was as likely written last by another thread's core: an admission writes two cache
 * lines other threads write too (the segment's lock and count, and the bucket), which is what a
 * second thread costs each admission (docs/BENCHMARKS.md, "Scaling").
 */
final class Holdings {
  /** Cause recorded when a release site saw the value (a {@link CacheSite} kind). */
  static final int RELEASE_SITE = CacheSite.RELEASE_SITE;
  /** Cause recorded when the value was garbage collected (a {@link CacheSite} kind). */
  static final int COLLECTED = CacheSite.COLLECTED;
  /** Release events committed (the sampled ones), for the chunk's sampling account. */
  static final java.util.concurrent.atomic.LongAdder EVENTS =
      new java.util.concurrent.atomic.LongAdder();

  private static final int SEGMENT_BITS = 10;
  private static final int SEGMENTS = 1 << SEGMENT_BITS;
  /** Collected holdings the releaser lets stay linked before it sweeps: at least this many. */
  private static final int SWEEP_AT_LEAST = 4096;

  private final Segment[] segments = new Segment[SEGMENTS];
  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
  /** Holdings released by collection and maybe still linked; written by the releaser only. */
  private long collectedLinked;
  /** When the releaser next counts the linked holdings to decide on a sweep. */
  private long sweepCheckAt = SWEEP_AT_LEAST;
  /** Sweeps the releaser made (read by tests). */
  private final AtomicLong sweeps = new AtomicLong();
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
    if (!segment(hash).link(value, hash, collected, site.account(ledger), bytes)) {
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
    if (holding == null) {
      return 0;
    }
    try {
      return holding.release(RELEASE_SITE);
    } finally {
      // The value outlives the holding's last use: unlinked, the holding is unreachable and
      // never enqueued, and until here its value is alive, so the collector cannot enqueue it.
      Reference.reachabilityFence(value);
    }
  }

  /** Returns the number of values held: linked, and not collected. */
  int size() {
    int n = 0;
    for (Segment s : segments) {
      n += s.live();
    }
    return n;
  }

  /** Returns the number of holdings linked, those of collected values not yet unlinked included. */
  int linked() {
    return (int) census()[0];
  }

  /** Returns the buckets of all segments. */
  long buckets() {
    return census()[1];
  }

  /** Returns the holdings linked and the buckets, summed over the segments. */
  private long[] census() {
    long[] c = new long[2];
    for (Segment s : segments) {
      s.census(c);
    }
    return c;
  }

  /** Returns how many sweeps of collected holdings the releaser has made. */
  long sweeps() {
    return sweeps.get();
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
        if (r instanceof Holding h && Holding.NEXT.getAcquire(h) != Holding.RELEASED) {
          h.release(COLLECTED);
          if (++collectedLinked >= sweepCheckAt) {
            // A sweep walks every bucket and holding: made once the collected are a quarter of
            // that, it costs each collected holding a constant.
            long[] c = census();
            long cost = c[0] + c[1];
            if (collectedLinked * 4 >= cost) {
              sweep();
            } else {
              sweepCheckAt = Math.max(collectedLinked + SWEEP_AT_LEAST, cost / 4);
            }
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        Log.warnOnce("releaser", "releasing a collected value failed (" + t + "); going on");
      }
    }
  }

  /** Unlinks every collected value's holding, one segment at a time. */
  private void sweep() {
    for (Segment s : segments) {
      s.unlinkCollected();
    }
    collectedLinked = 0;
    sweepCheckAt = SWEEP_AT_LEAST;
    sweeps.incrementAndGet();
  }

  /**
   * One chained hash table of holdings by the identity of their values, under its own lock: a
   * spin lock (one compare-and-set to take, a release store to give back) rather than a monitor,
   * whose exit is a second atomic operation; the sections it guards are a few loads and stores
   * (a resize rehashes one segment), and a thread that spins long yields.
   */
  private static final class Segment {
    private static final int MIN_BUCKETS = 8;
    /** An object no holding refers to. */
    private static final Object NONE = new Object();
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
    private Holding[] table = new Holding[MIN_BUCKETS];
    private int count;

    /**
     * Links a new holding of {@code value} unless one is linked already (the holding, a weak
     * reference, is made only then: a discarded reference still costs the collector).
     */
    boolean link(Object value, int hash, ReferenceQueue<Object> queue, Account account,
        long bytes) {
      lock();
      try {
        int i = index(hash, table.length);
        if (find(i, value, false) != null) {
          return false;
        }
        Holding h = bytes <= Holding.MAX_SMALL ? new Holding(value, queue, account, bytes)
            : new Holding.Big(value, queue, account, bytes);
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

    /** Unlinks and returns the holding of {@code value}, or null when none is linked. */
    Holding unlinkValue(Object value, int hash) {
      lock();
      try {
        Holding h = find(index(hash, table.length), value, true);
        if (h != null) {
          shrinkIfSparse();
        }
        return h;
      } finally {
        unlock();
      }
    }

    /**
     * Returns the holding of {@code value} in bucket {@code i}, unlinked from it when {@code
     * unlink}, and unlinks the holdings of collected values met on the way (the releaser hands
     * their bytes back, not this).
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

    /**
     * Rebuilds the table with {@code buckets} buckets, rehashing each live value by its identity
     * hash again and dropping the holdings of collected ones: doubled past one holding a bucket
     * on average (chains stay short and the buckets cost 4 to 8 bytes a holding), halved under
     * one in eight (a table that held many values does not keep its buckets).
     */
    private void resize(int buckets) {
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
      while (count < size >>> 3 && size > MIN_BUCKETS) {
        size >>>= 1;
      }
      if (size != table.length) {
        resize(size);
      }
    }

    private static int index(int hash, int length) {
      // The low bits chose the segment; the bucket comes from the bits above them.
      return (hash >>> SEGMENT_BITS) & (length - 1);
    }
  }

  /**
   * One admitted value: a weak reference to it, its account (the site and the tier's ledger), the
   * bytes reserved for it, and the next holding of its bucket (guarded by the segment's lock).
   * The bytes are an int read unsigned, up to 4 GiB - 1; a larger charge is a {@link Big}.
   */
  private static class Holding extends WeakReference<Object> {
    static final long MAX_SMALL = 0xFFFF_FFFFL;
    /**
     * The link of a holding a release site unlinked and released. Unlinked, such a holding is
     * garbage, but the collector may still find it through garbage it treats as live (a young
     * collection takes old objects for roots: an older table, a holding unlinked before), and
     * enqueue it once its value dies: the releaser passes by a holding so marked. Seen: 538 of
     * 2.45 million released twice in 20 s of a put-and-evict hammer before the mark.
     */
    static final Holding RELEASED = new Holding(null, null, null, 0);
    static final VarHandle NEXT;

    static {
      try {
        NEXT = MethodHandles.lookup().findVarHandle(Holding.class, "next", Holding.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final Account account;
    private final int bytes;
    Holding next;

    Holding(Object value, ReferenceQueue<Object> queue, Account account, long bytes) {
      super(value, queue);
      this.account = account;
      this.bytes = (int) Math.min(bytes, MAX_SMALL);
    }

    long bytes() {
      return Integer.toUnsignedLong(bytes);
    }

    /** Hands the bytes back; called once, by whoever unlinked this holding or the releaser. */
    final long release(int cause) {
      long b = bytes();
      TierLedger ledger = account.ledger();
      ledger.giveBack(b);
      CacheSite site = account.site();
      long weight = site.count(ledger.tier(), cause, b, false, Recorder.on());
      if (weight > 0) {
        try {
          long held = ledger.held();
          if (ReleaseEvent.emit(site.name(), Labels.of(ledger.tier()), b, CacheSite.NAMES[cause],
              held, weight)) {
            site.sampled(cause, new CacheSite.Sample("", b, b, b, false, false, held, -1, -1));
            EVENTS.increment();
          }
        } catch (Throwable ignored) {
          // Recording is best effort; the books are already right.
        }
      }
      return b;
    }

    /** A holding of 4 GiB or more. */
    static final class Big extends Holding {
      private final long bigBytes;

      Big(Object value, ReferenceQueue<Object> queue, Account account, long bytes) {
        super(value, queue, account, bytes);
        this.bigBytes = bytes;
      }

      @Override
      long bytes() {
        return bigBytes;
      }
    }
  }
}
