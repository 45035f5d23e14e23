package org.flodl.budget.agent.gate;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.flodl.budget.policy.TierLedger;

/**
 * What the caches retain, by identity: a weak identity table of {@value #SEGMENTS} segments ({@link
 * HoldingTable}s, by the value's identity hash), each admitted value one {@link Holding} on it that
 * carries the bytes reserved for it. A release site that sees the value hands its bytes back; a
 * value the cache drops without one hands them back when it is collected (the {@link Releaser}
 * thread). Each release happens exactly once; the package's documentation says how.
 */
final class Holdings {
  /** Release events committed (the sampled ones), for the chunk's sampling account. */
  static final LongAdder EVENTS = new LongAdder();

  /** The low bits of a value's identity hash that choose its segment. */
  static final int SEGMENT_BITS = 10;

  static final int SEGMENTS = 1 << SEGMENT_BITS;

  private final HoldingTable[] segments = new HoldingTable[SEGMENTS];

  /** The charges held by the entries of caches that keep a copy, in the values' place. */
  final Copies copies = new Copies(this);

  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

  /** Sweeps the releaser made (read by tests). */
  private final AtomicLong sweeps = new AtomicLong();

  private volatile Thread releaser;

  Holdings() {
    for (int i = 0; i < SEGMENTS; i++) {
      segments[i] = new HoldingTable();
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

  /**
   * Releases what {@code value} holds, if anything, counted on {@code t} (the calling thread's
   * state); returns the bytes handed back.
   */
  long release(Object value, GateThread t) {
    return release(value, t, CacheSite.RELEASE_SITE);
  }

  /** {@link #release} of what a call that threw had admitted at its entry. */
  long releaseThrown(Object value, GateThread t) {
    return release(value, t, CacheSite.CALL_THREW);
  }

  private long release(Object value, GateThread t, int cause) {
    if (value == null) {
      return 0;
    }
    int hash = System.identityHashCode(value);
    Holding holding = segment(hash).unlinkValue(value, hash);
    if (holding == null) {
      return 0;
    }
    try {
      return holding.release(cause, t);
    } finally {
      // The value outlives the holding's last use: unlinked, the holding is unreachable and
      // never enqueued, and until here its value is alive, so the collector cannot enqueue it.
      Reference.reachabilityFence(value);
    }
  }

  /** Returns the number of values held: linked, and not collected. */
  int size() {
    int n = 0;
    for (HoldingTable s : segments) {
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
  long[] census() {
    long[] c = new long[2];
    for (HoldingTable s : segments) {
      s.census(c);
    }
    return c;
  }

  /** Unlinks every collected value's holding, one segment at a time (the releaser's sweep). */
  void sweep() {
    for (HoldingTable s : segments) {
      s.unlinkCollected();
    }
    sweeps.incrementAndGet();
  }

  /**
   * Halves the segments that have stayed sparse since the last trim (the probe thread, after each
   * refresh): the buckets of values released for good go back, those of a cache refilled soon after
   * stay.
   */
  void trim() {
    for (HoldingTable s : segments) {
      s.trim();
    }
  }

  /** Returns how many sweeps of collected holdings the releaser has made. */
  long sweeps() {
    return sweeps.get();
  }

  private HoldingTable segment(int hash) {
    return segments[hash & (SEGMENTS - 1)];
  }

  private synchronized void startReleaser() {
    if (releaser != null) {
      return;
    }
    Thread t = new Thread(new Releaser(this, collected), "flodl-budget-release");
    t.setDaemon(true);
    releaser = t;
    t.start();
  }
}
