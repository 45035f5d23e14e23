package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.config.Mode;

/**
 * The answers at a cache-admit site's points, for {@link GateEngine}: an admission is decided by
 * {@link Admission} (nested bodies of one site and calls from inside the gate pass through); a
 * returned value is decided as it is, and evicted when declined; a release, or a decline call,
 * hands back what was retained; a body that threw gives back what it admitted; a hook runs its
 * adapter. Static, on the engine's own fields.
 */
final class Admissions {
  private Admissions() {}

  /**
   * Returns the value to retain at body point {@code a}, or {@link Gate#DECLINED}; {@code key}, the
   * entry's key where the site names it (else null), holds the charge of a cache that keeps a copy.
   */
  static Object admit(GateEngine e, Point.Admit a, Object receiver, Object key, Object value) {
    GateThread t = GateThread.current();
    int outer = t.enter(a.site().index());
    if (outer > 0 || t.inGate || value == null || !a.decidesFor(receiver)) {
      return value; // nested in a woven body of the same site, or inside the gate: pass through
    }
    if (a.wraps() != null) {
      return Wrapped.wrap(e, a, receiver, value);
    }
    if (pending(value)) {
      Completions.passed(a.site(), receiver);
      return value;
    }
    t.admittedNow = false;
    Object r = Admission.admission(e, t, a.site(), receiver, key, value, a.copies(), true);
    if (r == Gate.DECLINED) {
      t.leave(a.site().index()); // the woven method returns at once, without its exits
    } else if (t.admittedNow) {
      t.admitted = t.admittedHolder; // given back at once if the call throws (see leave)
      t.admittedSite = a.site().index();
    }
    return r;
  }

  /** Returns whether {@code value}, returned at body point {@code a}, was declined. */
  static boolean returned(GateEngine e, Point.Admit a, Object receiver, Object value) {
    GateThread t = GateThread.current();
    int before = t.leave(a.site().index());
    if (before > 1 || t.inGate || value == null || !a.decidesFor(receiver)) {
      return false;
    }
    return returnedDecision(e, t, a, receiver, value);
  }

  /** Returns the value a call at call point {@code a} should pass on, or {@link Gate#DECLINED}. */
  static Object admitCall(GateEngine e, Point.Admit a, Object value) {
    GateThread t = GateThread.current();
    if (t.inGate || value == null) {
      return value;
    }
    if (pending(value)) {
      Completions.passed(a.site(), null);
      return value;
    }
    return Admission.admission(e, t, a.site(), null, null, value, a.copies(), true);
  }

  /** Returns whether a call's returned {@code value} was declined at call point {@code a}. */
  static boolean returnedCall(GateEngine e, Point.Admit a, Object value) {
    GateThread t = GateThread.current();
    if (t.inGate || value == null) {
      return false;
    }
    return returnedDecision(e, t, a, null, value);
  }

  /**
   * A returned value cannot be replaced by a copy (the cache keeps what it returned): it is priced
   * as it is, and, declined, evicted by the site's decline call when there is one (its {@code
   * return} argument, the value). Without one the decision is recorded as {@code WOULD_DECLINE} and
   * nothing changes. A future not yet complete holds nothing yet: it is decided when it completes
   * ({@link Completions}), the decline call's arguments taken now.
   */
  private static boolean returnedDecision(
      GateEngine e, GateThread t, Point.Admit a, Object receiver, Object value) {
    t.declinedReturn = null;
    t.deferred = false;
    if (e.holdings.holds(value)) {
      return false; // a hit: the value was admitted when it was loaded
    }
    boolean evict = a.decline() != null;
    if (pending(value)) {
      if (!evict) {
        Completions.decideWhenComplete(e, a, receiver, null, value);
        return false;
      }
      t.declinedReturn = value; // the decline call that follows hands over its arguments
      t.deferred = true;
      return true;
    }
    Object r = Admission.admission(e, t, a.site(), receiver, null, value, false, evict);
    boolean declined = r == Gate.DECLINED && evict && e.mode() == Mode.ENFORCE;
    if (declined) {
      t.declinedReturn = value;
    }
    return declined;
  }

  /** Returns whether {@code value} is a future not yet complete (see {@link Completions}). */
  private static boolean pending(Object value) {
    return value instanceof java.util.concurrent.CompletableFuture<?> f && !f.isDone();
  }

  /**
   * Calls point {@code a}'s decline on {@code receiver} with the call's {@code args} (its {@code
   * return} argument the value this thread's decision just declined), and returns what the call
   * answers where it was skipped ({@code answering}); a future whose decision waits for its
   * completion takes the arguments along instead.
   */
  static Object decline(
      GateEngine e, Point.Admit a, Object receiver, Object[] args, boolean answering)
      throws Decline.Threw {
    GateThread t = GateThread.current();
    Object returned = t.declinedReturn;
    boolean deferred = t.deferred;
    t.declinedReturn = null;
    t.deferred = false;
    if (a.decline() == null || receiver == null) {
      return null;
    }
    if (deferred && !answering) {
      Completions.decideWhenComplete(e, a, receiver, args, returned);
      return null;
    }
    return a.decline()
        .decline(
            e.holdings, a.site(), receiver, a.decline().withReturned(args, returned), answering);
  }

  /**
   * A woven body of {@code a} left; where it {@code threw}, what it admitted at its entry is given
   * back at once (the call stored nothing), as a {@code CALL_THREW} release.
   */
  static void leave(Holdings holdings, Point.Admit a, boolean threw) {
    GateThread t = GateThread.current();
    int index = a.site().index();
    if (t.leave(index) != 1 || t.admittedSite != index) {
      return; // nested in a body of the same site, or nothing admitted at this body's entry
    }
    Object admitted = t.admitted;
    t.admitted = null;
    t.admittedSite = -1;
    if (threw && !t.inGate) {
      t.inGate = true;
      try {
        holdings.releaseThrown(admitted, t);
      } finally {
        t.inGate = false;
      }
    }
  }

  /** Releases what {@code returned} or, when it held nothing, {@code arguments} retained. */
  static void release(Holdings holdings, Object[] arguments, Object returned) {
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      if (holdings.release(returned, t) > 0) {
        return; // the common shape: evict(key) returns the value it let go
      }
      if (arguments != null) {
        for (Object a : arguments) {
          holdings.release(a, t);
        }
      }
    } finally {
      t.inGate = false;
    }
  }

  /**
   * Runs hook point {@code h}'s adapter on {@code receiver}, with the call's {@code arguments}
   * where the hook reads them (else null), inside the gate.
   */
  static void hook(GateEngine e, Point.Hook h, Object receiver, Object[] arguments) {
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      if (arguments != null) {
        h.hook().enter(receiver, arguments);
      } else {
        h.hook().enter(receiver, e.pricer());
      }
    } finally {
      t.inGate = false;
    }
  }
}
