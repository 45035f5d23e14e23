package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.pricing.HeapFootprint;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.Retained;
import org.flodl.budget.probes.VramReading;

/**
 * One cache-admit decision, for {@link Admissions}' points: price the value, reserve its charge
 * against the tier's anchored budget atomically, and admit it (with the owned copy of an over-slack
 * view) or decline it, counting the decision in the site's ledger and committing its event when the
 * site's sampler says one is due. {@code observe} takes the same decisions, books only what {@code
 * enforce} would have admitted, records declines as {@code WOULD_DECLINE} and changes nothing the
 * application sees; so does a decline on a cache that {@link Witnessed} keeps, unless the budget
 * steers that cache's own bound ({@link Steering}): its value is then stored and booked over the
 * budget, and the bound lowered by as many entries as the tier is over. Static, on the engine's own
 * fields: the hot path reads no object more than the engine's.
 */
final class Admission {
  /**
   * Whether any cache's own bound is steered ({@link Steering}): read on every admission, so that
   * the steering's classes load only once a cache is steered, never on the start path.
   */
  static volatile boolean steering;

  private Admission() {}

  /**
   * Prices {@code value}, reserves its charge and returns the value to retain (or its copy) or
   * {@link Gate#DECLINED}. In observe mode every answer is the value itself; {@code declinable}
   * false (a returned value with no way to evict it) records a decline as {@code WOULD_DECLINE},
   * and so does a decline on a {@code receiver} whose writers or listeners would learn of it
   * ({@link Witnessed}; null: a call point, whose receiver is not seen).
   */
  static Object admission(
      GateEngine e,
      GateThread t,
      CacheSite site,
      Object receiver,
      Object key,
      Object value,
      boolean mayCopy,
      boolean declinable) {
    t.inGate = true;
    try {
      return decide(e, t, site, receiver, key, value, mayCopy, declinable);
    } finally {
      t.inGate = false;
    }
  }

  private static Object decide(
      GateEngine e,
      GateThread t,
      CacheSite site,
      Object receiver,
      Object key,
      Object value,
      boolean mayCopy,
      boolean declinable) {
    e.start(); // the probe thread and the periodic events, at the first decision
    Budgets budgets = e.budgets;
    budgets.guard().check(); // a container near its limit: reclaim before this value adds to it
    e.cacheDecided(); // host_share=auto counts the decision from the site's counts
    boolean observe = e.mode() == Mode.OBSERVE || !declinable;
    Priced price;
    try {
      price = e.pricer().estimate(value, t.prices);
    } catch (Throwable x) {
      return unpriced(
          e, t, site, value, x, observe || Witnessed.keeps(site, receiver, false) != Witnessed.NO);
    }
    if (!mayCopy && price.materialize()) {
      // A value that cannot be replaced, or a view its site keeps (views = keep), pins what it
      // pins: its whole storage, uncopied.
      price =
          new Priced(
              price.tier(),
              price.valueType(),
              price.logicalBytes(),
              price.storageBytes(),
              Math.max(price.storageBytes(), price.logicalBytes()),
              false,
              price.estimated(),
              price.extrapolatedBytes());
    }
    // A cache that keeps a copy holds the charge by its entry; the copy is priced as the value,
    // exactly for an array (cloned), estimated for anything else (a serialized copy may differ).
    Copies.Entries copies = key == null ? null : e.holdings.copies.of(site, receiver);
    if (copies != null && !price.estimated() && !value.getClass().isArray()) {
      price =
          new Priced(
              price.tier(),
              price.valueType(),
              price.logicalBytes(),
              price.storageBytes(),
              price.chargedBytes(),
              price.materialize(),
              true,
              price.extrapolatedBytes());
    }
    Tier tier = price.tier();
    budgets.ensureRefreshed(tier);
    long charged = price.chargedBytes();
    if (tier == Tier.HEAP) {
      charged = HeapFootprint.ofThisHeap(value, charged);
    }
    TierLedger ledger = budgets.ledger(tier);
    // The budget this decision is taken against, and reported with: a refresh on the probe
    // thread may move the ledger's meanwhile.
    long budget = ledger.budget();
    long heldAfter = ledger.reserve(charged, budget);
    if (heldAfter < 0) {
      if (e.holdings.holds(value)) {
        // Retained already (put again, or a put nested in another site's): charged once.
        record(e, t, site, CacheSite.ALREADY_HELD, price, 0, false, ledger, -1, ledger.budget());
        return value;
      }
      int kept = observe ? Witnessed.KEEP : Witnessed.keeps(site, receiver, true);
      if (kept == Witnessed.STEER) {
        // Its own bound is steered instead: stored as the library would, and booked over the
        // budget, by which the bound is lowered once the value is held (Steering.over).
        heldAfter = ledger.reserve(charged, Long.MAX_VALUE);
      } else {
        record(
            e,
            t,
            site,
            kept == Witnessed.KEEP ? CacheSite.WOULD_DECLINE : CacheSite.DECLINE,
            price,
            charged,
            false,
            ledger,
            TierLedger.declinedAt(heldAfter),
            budget);
        if (kept == Witnessed.KEEP) {
          return value;
        }
        handBack(e, value, charged, budget);
        return Gate.DECLINED;
      }
    }
    Object stored = value;
    boolean copied = false;
    if (price.materialize() && !observe) {
      try {
        // An original a library's copy replaces is handed back as a declined value is (handBack).
        Retained r = e.pricer().retain(value, budget / 16);
        stored = r.value();
        copied = r.materialized();
      } catch (Exception | LinkageError x) {
        ledger.giveBack(charged);
        Log.warnOnce(
            "retain-" + site.name(),
            "site '"
                + site.name()
                + "': copying a "
                + value.getClass().getName()
                + " failed ("
                + Text.clip(String.valueOf(x), 120)
                + "); such values are declined");
        record(e, t, site, CacheSite.DECLINE, price, charged, false, ledger, -1, ledger.budget());
        handBack(e, value, charged, budget);
        return Gate.DECLINED;
      }
    }
    Copies.Token token = copies == null ? null : new Copies.Token(Copies.keys(key));
    if (!e.holdings.track(token != null ? token : stored, ledger, charged, site)) {
      // the same object is retained already, and charged once: the reservation was given back
      record(e, t, site, CacheSite.ALREADY_HELD, price, 0, false, ledger, -1, ledger.budget());
      return stored;
    }
    if (token != null) {
      copies.hold(key, token);
    }
    t.admittedNow = true;
    t.admittedHolder = token != null ? token : stored;
    if (steering) {
      if (heldAfter > budget) {
        Steering.over(receiver, heldAfter - budget, charged); // lowered by the entries over
      } else {
        Steering.admitted(receiver); // a steered bound the cache is at: room for one entry more
      }
    }
    if (tier == Tier.HEAP) {
      budgets.grew(tier, heldAfter, budget);
    }
    // The ledger's answer is at most what is held; the event says what is (summed only then).
    record(
        e,
        t,
        site,
        price.materialize() ? CacheSite.MATERIALIZED : CacheSite.ADMIT,
        price,
        charged,
        copied,
        ledger,
        heldAfter,
        budget);
    return stored;
  }

  /**
   * A value the pricer could not price (its own failure, an exception from the value's code, a
   * change under the walk) is not admitted unbooked: declined in enforce, {@code WOULD_DECLINE} in
   * observe, said once per site and reason.
   */
  private static Object unpriced(
      GateEngine e, GateThread t, CacheSite site, Object value, Throwable x, boolean observe) {
    String type = value.getClass().getName();
    String reason =
        x instanceof org.flodl.budget.pricing.PricingException p
            ? p.reason()
            : x.getClass().getSimpleName();
    String msg =
        "site '"
            + site.name()
            + "': a "
            + Text.clip(type, 80)
            + " could not be priced ("
            + Text.clip(String.valueOf(x), 120)
            + "); "
            + (observe ? "recorded as WOULD_DECLINE" : "such values are declined");
    if (Log.warnOnceSaid("unpriced-" + site.name() + "-" + reason, msg) && Recorder.on()) {
      InstrumentedEvent.emit(
          type, Loaders.name(value.getClass().getClassLoader()), site.name(), "PRICER_FAILED", msg);
    }
    Tier tier = site.lastTier();
    int kind = observe ? CacheSite.UNPRICED_WOULD_DECLINE : CacheSite.UNPRICED_DECLINE;
    long weight = site.count(t, tier, kind, 0, false, Recorder.on());
    if (weight > 0) {
      TierLedger l = e.budgets.ledger(tier);
      commit(
          e,
          site,
          tier,
          kind,
          new CacheSite.Sample(
              type, 0, 0, 0, false, false, l.held(), l.budget(), available(e.budgets, tier)),
          weight);
    }
    if (observe) {
      return value;
    }
    handBack(e, value, 0, 0);
    return Gate.DECLINED;
  }

  /**
   * Hands a declined value's references back to its library once the application no longer reaches
   * it (no cache will release it on eviction): an Arrow or Netty buffer. Its {@code bytes} stay
   * pending until then; past a sixteenth of the tier's {@code budget} pending, a collection is
   * asked for on the agent's own thread (the collector does not see off-heap bytes).
   */
  private static void handBack(GateEngine e, Object value, long bytes, long budget) {
    e.pricer().releaseWhenUnreachable(value, bytes, budget / 16);
  }

  /**
   * Counts one decision of {@code kind} in the site's ledger and, when its sampler says one is due,
   * commits its event standing for the decisions since the last: {@code held} is the tier's held
   * bytes after it (-1: read the ledger), {@code budget} the budget it was taken against.
   */
  private static void record(
      GateEngine e,
      GateThread t,
      CacheSite site,
      int kind,
      Priced p,
      long charged,
      boolean copied,
      TierLedger ledger,
      long held,
      long budget) {
    Tier tier = p.tier();
    boolean on = Recorder.on();
    long weight = site.count(t, tier, kind, charged, p.estimated(), on);
    if (weight == 0) {
      return;
    }
    // An admission's answer from the ledger is at most what is held; a decline says where the
    // ledger stood when it refused.
    long heldNow =
        held < 0
            ? ledger.held()
            : kind == CacheSite.ADMIT || kind == CacheSite.MATERIALIZED
                ? Math.min(held, ledger.held())
                : held;
    commit(
        e,
        site,
        tier,
        kind,
        new CacheSite.Sample(
            p.valueType(),
            p.logicalBytes(),
            p.storageBytes(),
            charged,
            copied,
            p.estimated(),
            heldNow,
            budget,
            available(e.budgets, tier)),
        weight);
  }

  /**
   * Commits the event of a decision priced and booked as {@code s}, standing for {@code weight};
   * sampled, it is its kind's last. Called only when an event is due: {@code s} is made then.
   */
  private static void commit(
      GateEngine e, CacheSite site, Tier tier, int kind, CacheSite.Sample s, long weight) {
    if (DecisionEvents.admission(site, tier, kind, s).decisions(weight).emit()) {
      site.sampled(kind, s);
      e.admissionEvents.increment();
    }
  }

  /** Returns the bytes {@code tier} has available by the last probe, -1 when unknown. */
  static long available(Budgets budgets, Tier tier) {
    if (tier == Tier.DEVICE) {
      VramReading v = budgets.vram(0);
      return v == null || v.failed() ? -1 : Math.max(0, v.totalBytes() - v.usedBytes());
    }
    return budgets.available(tier);
  }
}
