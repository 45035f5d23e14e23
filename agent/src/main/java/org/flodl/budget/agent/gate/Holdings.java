package org.flodl.budget.agent.gate;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.policy.TierLedger;

/**
 * What the caches retain, by identity: each admitted value maps to its reservation through one
 * weak reference, so a release site that sees the value (as an argument or a return value) hands
 * its bytes back, and a value the cache drops without a release site hands them back when it is
 * collected (the reference is enqueued and a daemon thread, {@code flodl-budget-release},
 * releases it). Whichever comes first releases, exactly once ({@link
 * TierLedger.Reservation#release()} is idempotent, and a release site clears the reference so it
 * is never enqueued). One allocation and one map operation per admission, none per lookup miss.
 */
final class Holdings {
  /** Cause recorded when a release site saw the value. */
  static final String RELEASE_SITE = "RELEASE_SITE";
  /** Cause recorded when the value was garbage collected. */
  static final String COLLECTED = "COLLECTED";

  private final ConcurrentHashMap<Object, Holding> byValue = new ConcurrentHashMap<>();
  private final ReferenceQueue<Object> collected = new ReferenceQueue<>();
  private volatile Thread releaser;

  /**
   * Records that {@code value} holds {@code reservation} for {@code site}; returns false (and
   * gives the reservation back) when the same object is held already: one charge is enough.
   */
  boolean track(Object value, TierLedger.Reservation reservation, CacheSite site) {
    if (releaser == null) {
      startReleaser();
    }
    Holding holding = new Holding(value, collected, reservation, site);
    if (byValue.putIfAbsent(holding, holding) != null) {
      holding.clear();
      reservation.release();
      return false;
    }
    return true;
  }

  /** Releases what {@code value} holds, if anything; returns the bytes handed back. */
  long release(Object value) {
    if (value == null) {
      return 0;
    }
    Holding holding = byValue.remove(new Lookup(value));
    if (holding == null) {
      return 0;
    }
    holding.clear(); // never enqueued now: the release site was first
    return holding.release(RELEASE_SITE);
  }

  /** Returns the number of values held. */
  int size() {
    return byValue.size();
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
          byValue.remove(h, h);
          h.release(COLLECTED);
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable t) {
        Log.warnOnce("releaser", "releasing a collected value failed (" + t + "); going on");
      }
    }
  }

  /**
   * One admitted value: a weak reference to it, compared by the referent's identity, carrying
   * its reservation. The map's key and value both.
   */
  private static final class Holding extends WeakReference<Object> {
    private final int hash;
    private final TierLedger.Reservation reservation;
    private final CacheSite site;

    Holding(Object value, ReferenceQueue<Object> queue, TierLedger.Reservation reservation,
        CacheSite site) {
      super(value, queue);
      this.hash = System.identityHashCode(value);
      this.reservation = reservation;
      this.site = site;
    }

    long release(String cause) {
      if (!reservation.release()) {
        return 0;
      }
      long bytes = reservation.bytes();
      site.released(bytes);
      if (Recorder.on()) {
        try {
          ReleaseEvent.emit(site.name(), Labels.of(reservation.tier()), bytes, cause,
              site.ledgerHeld(reservation.tier()));
        } catch (Throwable ignored) {
          // Recording is best effort; the books are already right.
        }
      }
      return bytes;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      Object v = get();
      if (v == null) {
        return false;
      }
      if (o instanceof Lookup) {
        return v == ((Lookup) o).value;
      }
      return o instanceof Holding && v == ((Holding) o).get();
    }
  }

  /** A strong, short-lived key for lookups by identity. */
  private static final class Lookup {
    private final Object value;

    Lookup(Object value) {
      this.value = value;
    }

    @Override
    public int hashCode() {
      return System.identityHashCode(value);
    }

    @Override
    public boolean equals(Object o) {
      if (o instanceof Holding) {
        Object v = ((Holding) o).get();
        return v != null && v == value;
      }
      return o instanceof Lookup && ((Lookup) o).value == value;
    }
  }
}
