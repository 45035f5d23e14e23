package org.flodl.budget.agent.gate;

import java.lang.ref.Cleaner;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.policy.TierLedger;

/**
 * What the caches retain, by identity: each admitted value maps to its reservation, held weakly,
 * so a release site that sees the value (as an argument or a return value) hands its bytes back,
 * and a value the cache drops without a release site hands them back when it is collected (a
 * {@link Cleaner}). Whichever comes first releases, exactly once; the other finds nothing.
 */
final class Holdings {
  /** Cause recorded when a release site saw the value. */
  static final String RELEASE_SITE = "RELEASE_SITE";
  /** Cause recorded when the value was garbage collected. */
  static final String COLLECTED = "COLLECTED";

  private final ConcurrentHashMap<Object, Holding> byValue = new ConcurrentHashMap<>();
  private volatile Cleaner cleaner;

  /** Returns whether {@code value} is already held. */
  boolean holds(Object value) {
    return byValue.containsKey(new Lookup(value));
  }

  /** Records that {@code value} holds {@code reservation} for {@code site}. */
  void track(Object value, TierLedger.Reservation reservation, CacheSite site) {
    WeakKey key = new WeakKey(value);
    Holding holding = new Holding(key, reservation, site, this);
    if (byValue.putIfAbsent(key, holding) != null) {
      // Held already (the same object admitted twice): one charge is enough.
      reservation.release();
      return;
    }
    holding.cleanable = cleaner().register(value, holding);
  }

  /** Releases what {@code value} holds, if anything; returns the bytes handed back. */
  long release(Object value) {
    if (value == null) {
      return 0;
    }
    Holding holding = byValue.get(new Lookup(value));
    if (holding == null) {
      return 0;
    }
    long bytes = holding.release(RELEASE_SITE);
    Cleaner.Cleanable c = holding.cleanable;
    if (c != null) {
      c.clean(); // deregisters; the action finds the reservation released and does nothing
    }
    return bytes;
  }

  /** Returns the number of values held. */
  int size() {
    return byValue.size();
  }

  private Cleaner cleaner() {
    Cleaner c = cleaner;
    if (c == null) {
      synchronized (this) {
        c = cleaner;
        if (c == null) {
          c = Cleaner.create(r -> {
            Thread t = new Thread(r, "flodl-budget-release");
            t.setDaemon(true);
            return t;
          });
          cleaner = c;
        }
      }
    }
    return c;
  }

  /** One admitted value's reservation; its run() is the Cleaner action (collected). */
  private static final class Holding implements Runnable {
    private final WeakKey key;
    private final TierLedger.Reservation reservation;
    private final CacheSite site;
    private final Holdings owner;
    volatile Cleaner.Cleanable cleanable;

    Holding(WeakKey key, TierLedger.Reservation reservation, CacheSite site, Holdings owner) {
      this.key = key;
      this.reservation = reservation;
      this.site = site;
      this.owner = owner;
    }

    long release(String cause) {
      owner.byValue.remove(key, this);
      if (!reservation.release()) {
        return 0;
      }
      site.released(reservation.bytes());
      try {
        if (!Recorder.on()) {
          return reservation.bytes();
        }
        ReleaseEvent.emit(site.name(), reservation.tier().label(), reservation.bytes(), cause,
            site.ledgerHeld(reservation.tier()));
      } catch (Throwable ignored) {
        // Recording is best effort; the books are already right.
      }
      return reservation.bytes();
    }

    @Override
    public void run() {
      try {
        release(COLLECTED);
      } catch (Throwable ignored) {
        // The cleaner thread must survive whatever happens here.
      }
    }
  }

  /** The map key: a weak reference compared by the referent's identity. */
  private static final class WeakKey extends WeakReference<Object> {
    private final int hash;

    WeakKey(Object referent) {
      super(referent);
      this.hash = System.identityHashCode(referent);
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
      return o instanceof WeakKey && v == ((WeakKey) o).get();
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
      if (o instanceof WeakKey) {
        Object v = ((WeakKey) o).get();
        return v != null && v == value;
      }
      return o instanceof Lookup && ((Lookup) o).value == value;
    }
  }
}
