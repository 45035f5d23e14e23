package org.flodl.budget.agent.gate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.SamplingEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.Retained;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * The decisions behind {@link Gate}: a cache admission prices the value, reserves its charge
 * against the tier's anchored budget atomically and admits (with the owned copy of an over-slack
 * view) or declines; a depth decision sizes the host ring or the VRAM depth from the last probe and
 * the last batch price; each commits its event. {@code observe} takes the same decisions, books
 * only what {@code enforce} would have admitted, records declines as {@code WOULD_DECLINE} and
 * changes nothing the application sees. Points are bound before the engine is installed, and
 * more as bodies are found in supertypes of the sites' types; the mode and the knobs can change
 * while it runs (the MBean). While a thread works inside the engine it is marked {@link
 * GateThread#inGate}: woven code it reaches passes through, and no lock of the engine is held
 * while Flight Recorder or the MBean server is called.
 */
public final class GateEngine implements Decisions {
  private static final String ADMIT = "ADMIT";
  private static final String ADMIT_MATERIALIZED = "ADMIT_MATERIALIZED";
  private static final String DECLINE = "DECLINE";
  private static final String WOULD_DECLINE = "WOULD_DECLINE";
  private static final String ALREADY_HELD = "ALREADY_HELD";

  private final Map<String, CacheSite> cacheSites = new LinkedHashMap<>();
  private final Map<String, DepthSite> depthSites = new LinkedHashMap<>();
  private volatile Point[] points = new Point[0];
  private final Supplier<RetentionPricer> pricerFactory;
  private volatile RetentionPricer pricer;
  private final Object pricerLock = new Object();
  private final Budgets budgets;
  private final Holdings holdings = new Holdings();
  /** CacheAdmission events committed (the sampled ones), for the chunk's sampling account. */
  private final java.util.concurrent.atomic.LongAdder admissionEvents =
      new java.util.concurrent.atomic.LongAdder();
  private final Object closing = new Object();
  private long lastClose = System.nanoTime(); // guarded by closing
  private long chunkDecisions; // guarded by closing: decisions since the last Sampling event
  private long chunkReleases; // guarded by closing
  private final HostShareSource hostShareSource;
  private volatile Mode mode;
  private volatile boolean prefetchAuto;
  private volatile boolean cacheActive;
  private volatile boolean started;
  private volatile Runnable afterFirstRefresh;

  /** Returns an engine pricing with {@code pricer} against budgets from {@code probes}. */
  public GateEngine(Mode mode, boolean prefetchAuto, Supplier<RetentionPricer> pricerFactory,
      Supplier<MemoryProbes> probeFactory, Duration probeInterval, double ramMaxUsage,
      double heapMaxUsage, double vramMaxUsage, DoubleSupplier hostShare) {
    this.mode = engineMode(mode);
    this.prefetchAuto = prefetchAuto;
    this.pricerFactory = pricerFactory;
    this.hostShareSource = hostShare instanceof HostShareSource ? (HostShareSource) hostShare : null;
    this.budgets = new Budgets(probeFactory, probeInterval, ramMaxUsage, heapMaxUsage,
        vramMaxUsage, hostShare);
  }

  /** Turns the container guard on or off ({@code reclaim=}). */
  public void reclaim(boolean on) {
    budgets.guard().enabled(on);
  }

  /**
   * Returns what {@code value} holds as the pricer sees it, its logical bytes (an NDArray's {@code
   * size × element bytes}), or -1 when it cannot be priced; copies nothing.
   */
  public long logicalBytes(Object value) {
    try {
      return pricer().estimate(value).logicalBytes();
    } catch (Throwable t) {
      return -1;
    }
  }

  /** Returns the pricer, made on first use (its service lookup costs start-up time). */
  private RetentionPricer pricer() {
    RetentionPricer p = pricer;
    if (p == null) {
      synchronized (pricerLock) {
        p = pricer;
        if (p == null) {
          p = pricerFactory.get();
          pricer = p;
        }
      }
    }
    return p;
  }

  // ------------------------------------------------------------------------------ binding

  /** Makes this JVM a stager: budgets split 3:1 between its caches and its prefetch. */
  public void stager(boolean on) {
    budgets.stager(on);
  }

  /**
   * Returns the point id of an admission at cache-admit site {@code site}: of an argument or of
   * the returned value, at a method body or around a call; {@code decline} evicts by key (null:
   * none).
   */
  public synchronized int bindAdmit(String site, boolean returned, boolean call,
      MethodRef decline) {
    return bind(new Point.Admit(cacheSite(site), returned, call, null,
        decline == null ? null : new Decline(decline)));
  }

  /** Returns the point id of a release point of cache-admit site {@code site}. */
  public synchronized int bindRelease(String site) {
    return bind(new Point.Release(cacheSite(site)));
  }

  /** Returns the point id of prefetch-depth site {@code site}'s depth. */
  public synchronized int bindDepth(String site, String device, int deviceIndex, long batchBytes,
      long activationReserve, boolean callSite, DepthAdapter adapter) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      s = new DepthSite(site, device, deviceIndex, batchBytes, activationReserve, callSite,
          adapter);
      depthSites.put(site, s);
      if (s.cuda()) {
        budgets.expectDevice(); // VRAM read with every refresh, the first included
      }
    }
    return bind(new Point.Depth(s));
  }

  /** Returns the point id of a batch point of prefetch-depth site {@code site} (bound first). */
  public synchronized int bindBatch(String site) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      throw new IllegalStateException("bind the depth of " + site + " before its batches");
    }
    return bind(new Point.Batch(s));
  }

  /** Returns the point id of {@code hook}, an adapter's code for cache-admit site {@code site}. */
  public synchronized int bindHook(String site, EntryHook hook) {
    return bind(new Point.Hook(cacheSite(site), hook));
  }

  /**
   * Returns a point like {@code basePoint} that decides only for receivers that are instances of
   * {@code receiverType}: a body a subtype inherits from a supertype that is not the site's type.
   */
  public synchronized int bindForReceivers(int basePoint, String receiverType) {
    Point p = points[basePoint];
    if (p instanceof Point.Admit a) {
      return bind(new Point.Admit(a.site(), a.returned(), a.call(),
          new Point.Receivers(receiverType.replace('/', '.')), a.decline()));
    }
    return bind(p); // a release, a depth or a batch decides the same for any receiver
  }

  private CacheSite cacheSite(String site) {
    CacheSite s = cacheSites.get(site);
    if (s == null) {
      s = new CacheSite(site, cacheSites.size());
      cacheSites.put(site, s);
    }
    return s;
  }

  private int bind(Point p) {
    Point[] old = points;
    Point[] grown = java.util.Arrays.copyOf(old, old.length + 1);
    grown[old.length] = p;
    points = grown;
    return old.length;
  }

  Point point(int id) {
    Point[] p = points;
    return id >= 0 && id < p.length ? p[id] : null;
  }

  /**
   * Sets what runs once the probes have been read the first time (the MBean, the configuration
   * hook); the probe thread itself starts at the first decision, or at {@link #start()}.
   */
  public void onStart(Runnable afterFirstRefresh) {
    this.afterFirstRefresh = afterFirstRefresh;
  }

  /** Counts one unit of this rank's consumption (a batch seen elsewhere, e.g. DJL's fetch). */
  public void consumed() {
    if (hostShareSource != null) {
      hostShareSource.count();
    }
  }

  /** Starts the probe thread and the periodic events now (attach); returns at once. */
  public void start() {
    if (started) {
      return;
    }
    started = true;
    Runnable after = afterFirstRefresh;
    HostShareSource share = hostShareSource;
    budgets.start(new Runnable() {
      @Override
      public void run() {
        if (share != null) {
          MemorySnapshot s = budgets.snapshot();
          share.start(s == null || s.host() == null ? "host" : s.host().domain());
        }
        Recorder.whenInitialized(new Runnable() {
          @Override
          public void run() {
            registerPeriodicEvents();
          }
        });
        if (after != null) {
          after.run();
        }
      }
    });
  }

  // ------------------------------------------------------------------------------ live control

  /** Returns the mode. */
  public Mode mode() {
    return mode;
  }

  /** Sets the mode (live control): enforce or observe ({@code off} needs a restart). */
  public void mode(Mode newMode) {
    this.mode = engineMode(newMode);
  }

  private static Mode engineMode(Mode m) {
    if (m != Mode.ENFORCE && m != Mode.OBSERVE) {
      throw new IllegalArgumentException("mode '" + (m == null ? "null" : m.label())
          + "': expected enforce or observe (off installs no engine, and needs a restart)");
    }
    return m;
  }

  /** Returns whether {@code prefetch=auto}. */
  public boolean prefetchAuto() {
    return prefetchAuto;
  }

  /** Returns the usage cap {@code knob} in force. */
  public double knob(Knob knob) {
    return switch (knob) {
      case RAM_MAX_USAGE -> budgets.ramMaxUsage();
      case HEAP_MAX_USAGE -> budgets.heapMaxUsage();
      case VRAM_MAX_USAGE -> budgets.vramMaxUsage();
    };
  }

  /** Sets the usage cap {@code knob} and re-budgets at once. */
  public void knob(Knob knob, double value) {
    budgets.knob(knob, value);
  }

  /** Returns each tier's held bytes. */
  public Map<Tier, Long> held() {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      m.put(t, budgets.ledger(t).held());
    }
    return m;
  }

  /**
   * Has the refreshes read device 0 from the first on (a site on a GPU, or a {@code fixed:} VRAM
   * probe); otherwise the GPU probes start only at the first device decision.
   */
  public void expectDevice() {
    budgets.expectDevice();
  }

  /** Returns the bytes {@code tier} holds now. */
  public long held(Tier tier) {
    return budgets.ledger(tier).held();
  }

  /** Returns the names of the cache-admit sites and the prefetch-depth sites, in binding order. */
  public synchronized List<String> siteNames(boolean cache) {
    return new ArrayList<>(cache ? cacheSites.keySet() : depthSites.keySet());
  }

  /** Returns cache-admit site {@code name}'s counts from its start to now, or null. */
  public SiteTotals totals(String name) {
    CacheSite s;
    synchronized (this) {
      s = cacheSites.get(name);
    }
    return s == null ? null : s.totalsNow();
  }

  /** Returns the budget of {@code tier} now. */
  public long budget(Tier tier) {
    return budgets.ledger(tier).budget();
  }

  /** Returns each tier's budget. */
  public Map<Tier, Long> budgets() {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      m.put(t, budgets.ledger(t).budget());
    }
    return m;
  }

  // ------------------------------------------------------------------------------ adapters

  /**
   * Returns the probes read now, every tier re-budgeted: an epoch boundary (DJL's {@code
   * DataIterable}) decides on fresh numbers, not the last tick's.
   */
  public MemorySnapshot refreshAtEpoch() {
    budgets.refresh();
    return budgets.snapshot();
  }

  /** Returns device {@code index}'s VRAM reading from the last refresh (failed when unknown). */
  public VramReading vram(int index) {
    VramReading v = budgets.vram(index);
    return v == null ? VramReading.failure("none", "no reading") : v;
  }

  /**
   * Returns the flow quarter of the host-RAM stager split when a {@code role = stager} site splits
   * the budget (what a host prefetch ring may take), empty otherwise.
   */
  public OptionalLong stagerStreamBytes() {
    return budgets.stager() ? OptionalLong.of(budgets.streamBytes()) : OptionalLong.empty();
  }

  /** Returns whether a cache-admit site has decided (a host ring then leaves it room). */
  public boolean cacheActive() {
    return cacheActive;
  }

  /** Returns whether the engine decides and records only ({@code mode=observe}). */
  public boolean observing() {
    return mode == Mode.OBSERVE;
  }

  // ------------------------------------------------------------------------------ admissions

  @Override
  public Object admit(int id, Object receiver, Object value) {
    if (!(point(id) instanceof Point.Admit a)) {
      return value;
    }
    GateThread t = GateThread.current();
    int outer = t.enter(a.site().index());
    if (outer > 0 || t.inGate || value == null || !a.decidesFor(receiver)) {
      return value; // nested in a woven body of the same site, or inside the gate: pass through
    }
    Object r = admission(t, a.site(), value, true);
    if (r == Gate.DECLINED) {
      t.leave(a.site().index()); // the woven method returns at once, without its exits
    }
    return r;
  }

  @Override
  public void enter(int id) {
    if (point(id) instanceof Point.Admit a) {
      GateThread.current().enter(a.site().index());
    }
  }

  @Override
  public void leave(int id) {
    if (point(id) instanceof Point.Admit a) {
      GateThread.current().leave(a.site().index());
    }
  }

  @Override
  public boolean returned(int id, Object receiver, Object value) {
    if (!(point(id) instanceof Point.Admit a)) {
      return false;
    }
    GateThread t = GateThread.current();
    int before = t.leave(a.site().index());
    if (before > 1 || t.inGate || value == null || !a.decidesFor(receiver)) {
      return false;
    }
    return returnedDecision(t, a, value);
  }

  @Override
  public Object admitCall(int id, Object value) {
    if (!(point(id) instanceof Point.Admit a)) {
      return value;
    }
    GateThread t = GateThread.current();
    if (t.inGate || value == null) {
      return value;
    }
    return admission(t, a.site(), value, true);
  }

  @Override
  public boolean returnedCall(int id, Object value) {
    if (!(point(id) instanceof Point.Admit a)) {
      return false;
    }
    GateThread t = GateThread.current();
    if (t.inGate || value == null) {
      return false;
    }
    return returnedDecision(t, a, value);
  }

  /**
   * A returned value cannot be replaced by a copy (the cache keeps what it returned): it is
   * priced as it is, and, declined, evicted by the site's decline call when there is one. Without
   * one the decision is recorded as {@code WOULD_DECLINE} and nothing changes.
   */
  private boolean returnedDecision(GateThread t, Point.Admit a, Object value) {
    if (holdings.holds(value)) {
      return false; // a hit: the value was admitted when it was loaded
    }
    boolean evict = a.decline() != null;
    Object r = admission(t, a.site(), value, false, evict);
    return r == Gate.DECLINED && evict && mode == Mode.ENFORCE;
  }

  @Override
  public void decline(int id, Object receiver, Object[] args) {
    if (!(point(id) instanceof Point.Admit a) || a.decline() == null || receiver == null) {
      return;
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      Object older = a.decline().call(receiver, args);
      if (older != null) {
        holdings.release(older); // remove(key) returns the value it let go
      }
    } catch (Throwable e) {
      String msg = "site '" + a.site().name() + "': the decline call " + a.decline().method()
          + " failed (" + Text.clip(String.valueOf(e), 160) + "); declined values stay cached";
      if (Log.warnOnceSaid("decline-" + a.site().name(), msg) && Recorder.on()) {
        InstrumentedEvent.emit(receiver.getClass().getName(), loaderName(receiver.getClass()),
            a.site().name(), "DECLINE_FAILED", msg);
      }
    } finally {
      t.inGate = false;
    }
  }

  private Object admission(GateThread t, CacheSite site, Object value, boolean mayCopy) {
    return admission(t, site, value, mayCopy, true);
  }

  /**
   * Prices {@code value}, reserves its charge and returns the value to retain (or its copy) or
   * {@link Gate#DECLINED}. In observe mode every answer is the value itself; {@code declinable}
   * false (a returned value with no way to evict it) records a decline as {@code WOULD_DECLINE}.
   */
  private Object admission(GateThread t, CacheSite site, Object value, boolean mayCopy,
      boolean declinable) {
    t.inGate = true;
    try {
      return decide(site, value, mayCopy, declinable);
    } finally {
      t.inGate = false;
    }
  }

  private Object decide(CacheSite site, Object value, boolean mayCopy, boolean declinable) {
    if (!started) {
      start();
    }
    budgets.guard().check(); // a container near its limit: reclaim before this value adds to it
    if (!cacheActive) {
      cacheActive = true;
    }
    if (hostShareSource != null) {
      hostShareSource.count();
    }
    boolean observe = mode == Mode.OBSERVE || !declinable;
    Priced price;
    try {
      price = pricer().estimate(value);
    } catch (Throwable e) {
      return unpriced(site, value, e, observe);
    }
    if (!mayCopy && price.materialize()) {
      // A value that cannot be replaced pins what it pins: its whole storage, uncopied.
      price = new Priced(price.tier(), price.valueType(), price.logicalBytes(),
          price.storageBytes(), Math.max(price.storageBytes(), price.logicalBytes()), false,
          price.estimated(), price.extrapolatedBytes());
    }
    Tier tier = price.tier();
    budgets.ensureRefreshed(tier);
    long charged = price.chargedBytes();
    if (tier == Tier.HEAP) {
      charged = budgets.heapFootprint(value, charged);
    }
    TierLedger ledger = budgets.ledger(tier);
    // The budget this decision is taken against, and reported with: a refresh on the probe
    // thread may move the ledger's meanwhile.
    long budget = ledger.budget();
    long heldAfter = ledger.reserve(charged, budget);
    if (heldAfter < 0) {
      if (holdings.holds(value)) {
        // Retained already (put again, or a put nested in another site's): charged once.
        record(site, CacheSite.ALREADY_HELD, price, 0, false, ledger, -1, ledger.budget());
        return value;
      }
      record(site, observe ? CacheSite.WOULD_DECLINE : CacheSite.DECLINE, price, charged, false,
          ledger, TierLedger.declinedAt(heldAfter), budget);
      return observe ? value : Gate.DECLINED;
    }
    Object stored = value;
    boolean copied = false;
    if (price.materialize() && !observe) {
      try {
        Retained r = pricer().retain(value);
        stored = r.value();
        copied = r.materialized();
      } catch (Exception | LinkageError e) {
        ledger.giveBack(charged);
        Log.warnOnce("retain-" + site.name(), "site '" + site.name() + "': copying a "
            + value.getClass().getName() + " failed (" + Text.clip(String.valueOf(e), 120)
            + "); such values are declined");
        record(site, CacheSite.DECLINE, price, charged, false, ledger, -1, ledger.budget());
        return Gate.DECLINED;
      }
    }
    if (!holdings.track(stored, ledger, charged, site)) {
      // the same object is retained already, and charged once: the reservation was given back
      record(site, CacheSite.ALREADY_HELD, price, 0, false, ledger, -1, ledger.budget());
      return stored;
    }
    if (tier == Tier.HEAP) {
      budgets.grew(tier, heldAfter, budget);
    }
    // The ledger's answer is at most what is held; the event says what is (summed only then).
    record(site, price.materialize() ? CacheSite.MATERIALIZED : CacheSite.ADMIT, price, charged,
        copied, ledger, heldAfter, budget);
    return stored;
  }

  /**
   * A value the pricer could not price (its own failure, an exception from the value's code, a
   * change under the walk) is not admitted unbooked: declined in enforce, {@code WOULD_DECLINE} in
   * observe, said once per site and reason.
   */
  private Object unpriced(CacheSite site, Object value, Throwable e, boolean observe) {
    String type = value.getClass().getName();
    String reason = e instanceof org.flodl.budget.pricing.PricingException p ? p.reason()
        : e.getClass().getSimpleName();
    String msg = "site '" + site.name() + "': a " + Text.clip(type, 80) + " could not be priced ("
        + Text.clip(String.valueOf(e), 120) + "); "
        + (observe ? "recorded as WOULD_DECLINE" : "such values are declined");
    if (Log.warnOnceSaid("unpriced-" + site.name() + "-" + reason, msg) && Recorder.on()) {
      InstrumentedEvent.emit(type, loaderName(value.getClass()), site.name(), "PRICER_FAILED", msg);
    }
    Tier tier = site.lastTier();
    int kind = observe ? CacheSite.UNPRICED_WOULD_DECLINE : CacheSite.UNPRICED_DECLINE;
    long weight = site.count(tier, kind, 0, false, Recorder.on());
    if (weight > 0) {
      TierLedger l = budgets.ledger(tier);
      long available = availableOf(tier);
      CacheSite.Sample s = new CacheSite.Sample(type, 0, 0, 0, false, false, l.held(), l.budget(),
          available);
      if (CacheAdmissionEvent.emit(site.name(), Labels.of(tier), type, 0, 0, 0, false, false,
          CacheSite.NAMES[kind], s.held(), s.budget(), available, weight)) {
        site.sampled(kind, s);
        admissionEvents.increment();
      }
    }
    return observe ? value : Gate.DECLINED;
  }

  /**
   * Counts one decision of {@code kind} in the site's ledger and, when its sampler says one is
   * due, commits its event standing for the decisions since the last: {@code held} is the tier's
   * held bytes after it (-1: read the ledger), {@code budget} the budget it was taken against.
   */
  private void record(CacheSite site, int kind, Priced p, long charged, boolean copied,
      TierLedger ledger, long held, long budget) {
    Tier tier = p.tier();
    boolean on = Recorder.on();
    long weight = site.count(tier, kind, charged, p.estimated(), on);
    if (weight == 0) {
      return;
    }
    // An admission's answer from the ledger is at most what is held; a decline says where the
    // ledger stood when it refused.
    long heldNow = held < 0 ? ledger.held()
        : kind == CacheSite.ADMIT || kind == CacheSite.MATERIALIZED ? Math.min(held, ledger.held())
        : held;
    long available = availableOf(tier);
    if (CacheAdmissionEvent.emit(site.name(), Labels.of(tier), p.valueType(), p.logicalBytes(),
        p.storageBytes(), charged, copied, p.estimated(), CacheSite.NAMES[kind], heldNow, budget,
        available, weight)) {
      site.sampled(kind, new CacheSite.Sample(p.valueType(), p.logicalBytes(), p.storageBytes(),
          charged, copied, p.estimated(), heldNow, budget, available));
      admissionEvents.increment();
    }
  }

  private long availableOf(Tier tier) {
    if (tier == Tier.DEVICE) {
      VramReading v = budgets.vram(0);
      return v == null || v.failed() ? -1 : Math.max(0, v.totalBytes() - v.usedBytes());
    }
    return budgets.available(tier);
  }

  // ------------------------------------------------------------------------------ depths

  @Override
  public int depth(int id, int requested, Object[] arguments) {
    if (!(point(id) instanceof Point.Depth d)) {
      return requested;
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return requested;
    }
    t.inGate = true;
    try {
      DepthSite site = d.site();
      if (site.adapter() != null) {
        return site.adapter().depth(this, requested, arguments);
      }
      return depth(site, requested);
    } finally {
      t.inGate = false;
    }
  }

  private int depth(DepthSite site, int requested) {
    if (!started) {
      start();
    }
    budgets.ensureRefreshed();
    DepthDecision.Decision d = DepthDecision.decide(depthInputs(site, requested));
    DecisionEvents.depth(site.name(), site.device(), requested, d);
    int built = mode == Mode.OBSERVE ? requested : d.applied();
    long batch = site.batchBytes();
    if (!site.cuda() && batch > 0) {
      budgets.ring(site.name(), site.batchTier(),
          built > 0 && batch > Long.MAX_VALUE / built ? Long.MAX_VALUE : built * batch);
    }
    return built;
  }

  /**
   * Returns the policy's inputs at a sites-file depth site: its device's VRAM reading and its
   * activation reserve (the first decision's only), or the memory its batches live in (the heap
   * for heap batches, host RAM otherwise, the stager's flow quarter when this JVM splits); no
   * epoch length is known here.
   */
  DepthDecision.Inputs depthInputs(DepthSite site, int requested) {
    long batch = site.batchBytes();
    if (site.cuda()) {
      VramReading v = budgets.vram(site.deviceIndex());
      return new DepthDecision.Inputs(true, requested, batch, 0,
          v == null ? Long.MAX_VALUE : v.usedBytes(), v == null ? 0 : v.totalBytes(),
          budgets.vramMaxUsage(), site.takeActivationReserve(), OptionalLong.empty(),
          budgets.ramMaxUsage(), cacheActive, prefetchAuto, OptionalLong.empty(),
          site.callSite());
    }
    // The ring holds batches where they live: heap batches are sized from the heap (what the
    // last probe left available, after the caches), others from host RAM.
    boolean heap = site.batchTier() == Tier.HEAP;
    OptionalLong available;
    if (heap || site.batchTier() == Tier.NATIVE) {
      // native batches (ND4J's) are bounded by JavaCPP's limits too, where it is loaded
      long a = budgets.available(site.batchTier());
      available = a < 0 ? OptionalLong.empty() : OptionalLong.of(a);
    } else {
      available = budgets.hostAvailable();
    }
    return new DepthDecision.Inputs(false, requested, batch, 0, Long.MAX_VALUE, 0,
        budgets.vramMaxUsage(), 0, available,
        heap ? budgets.heapMaxUsage() : budgets.ramMaxUsage(), cacheActive, prefetchAuto,
        budgets.stager() && !heap ? OptionalLong.of(budgets.streamBytes()) : OptionalLong.empty(),
        site.callSite());
  }

  // ------------------------------------------------------------------------------ releases

  @Override
  public void release(int id, Object[] arguments, Object returned) {
    if (!(point(id) instanceof Point.Release)) {
      return;
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      if (holdings.release(returned) > 0) {
        return; // the common shape: evict(key) returns the value it let go
      }
      if (arguments != null) {
        for (Object a : arguments) {
          holdings.release(a);
        }
      }
    } finally {
      t.inGate = false;
    }
  }

  @Override
  public void batch(int id, Object receiver, Object batch) {
    if (batch == null || !(point(id) instanceof Point.Batch b)) {
      return;
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      DepthSite site = b.site();
      if (site.adapter() != null) {
        site.adapter().batch(this, receiver, batch);
        return;
      }
      if (hostShareSource != null) {
        hostShareSource.count();
      }
      Priced p = pricer().estimate(batch);
      long bytes = site.cuda() ? p.logicalBytes()
          : p.tier() == Tier.HEAP ? budgets.heapFootprint(batch, p.chargedBytes())
          : p.chargedBytes();
      site.batchPriced(bytes, p.tier());
    } finally {
      t.inGate = false;
    }
  }

  @Override
  public void hook(int id, Object receiver) {
    if (receiver == null || !(point(id) instanceof Point.Hook h)) {
      return;
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return;
    }
    t.inGate = true;
    try {
      h.hook().enter(receiver);
    } finally {
      t.inGate = false;
    }
  }

  @Override
  public void failed(int id, Throwable t) {
    Point p = point(id);
    String name = p instanceof Point.Admit a ? a.site().name()
        : p instanceof Point.Release r ? r.site().name()
        : p instanceof Point.Depth d ? d.site().name()
        : p instanceof Point.Batch b ? b.site().name()
        : p instanceof Point.Hook h ? h.site().name() : "#" + id;
    Log.warnOnce("failed-" + name, "site '" + name + "': the gate failed ("
        + Text.clip(String.valueOf(t), 160) + "); the call ran as written");
  }

  static String loaderName(Class<?> c) {
    return Loaders.name(c.getClassLoader());
  }

  // ------------------------------------------------------------------------------ periodic

  /**
   * Registers the JVM's periodic events (memory probe, site summaries, the chunk's sampling
   * account) for this engine, when it is the installed one: the hooks are one per JVM, and an
   * engine the woven code does not reach (an in-process test's) must not take them over.
   */
  private void registerPeriodicEvents() {
    if (!Gate.isInstalled(this)) {
      return;
    }
    MemoryProbeEvent.register(this::fillProbeEvent);
    SiteSummaryEvent.register(this::emitSummaries);
    SamplingEvent.register(this::closeChunk);
  }

  private void fillProbeEvent(MemoryProbeEvent e) {
    MemorySnapshot s = budgets.snapshot();
    if (s != null) {
      if (s.host() != null) {
        e.host(s.host().availableBytes(), s.host().cgroupLimitBytes(),
            s.host().cgroupUsageBytes());
        e.source(s.host().source(), s.host().cgroupPath());
      }
      if (s.heap() != null) {
        e.heap(s.heap().maxBytes(), s.heap().liveBytes());
      }
      if (s.direct() != null) {
        e.direct(s.direct().usedBytes(), s.direct().maxBytes());
      }
    }
    VramReading v = budgets.vramIfAsked(); // no GPU probe for a JVM that budgets no GPU
    boolean vram = v != null && !v.failed();
    if (vram) {
      e.vram(v.usedBytes(), v.totalBytes());
    }
    for (Tier t : Tier.values()) {
      TierLedger l = budgets.ledger(t);
      long available = t == Tier.DEVICE
          ? (vram && v.totalBytes() >= 0 && v.usedBytes() >= 0
              ? Math.max(0, v.totalBytes() - v.usedBytes()) : -1)
          : s == null ? -1 : s.availableBytes(t);
      e.tier(t.label(), available, l.held(), l.budget());
    }
  }

  /**
   * Closes the period: per cache site and tier, its summary since the last close, and one event
   * per site, tier and kind for the decisions the sampler held back since its last committed
   * event (so the events' weights add up to the summaries' counts).
   */
  private void emitSummaries() {
    synchronized (closing) {
      List<CacheSite> sites;
      synchronized (this) {
        sites = new ArrayList<>(cacheSites.values());
      }
      long now = System.nanoTime();
      double seconds = (now - lastClose) / 1e9;
      lastClose = now;
      double admissionRate = CacheAdmissionEvent.Throttle.RATE.perSecond();
      double releaseRate = ReleaseEvent.Throttle.RATE.perSecond();
      int tiers = Tier.values().length;
      for (CacheSite s : sites) {
        long[][] left = new long[tiers][CacheSite.KINDS];
        for (CacheSite.Tiered t : s.close(left, admissionRate, releaseRate, seconds)) {
          TierLedger l = budgets.ledger(t.tier());
          SiteSummaryEvent.Counts c = t.counts();
          chunkDecisions += c.admissions() + c.declines() + c.alreadyHeld();
          chunkReleases += c.releases();
          SiteSummaryEvent.emit(s.name(), Labels.of(t.tier()), c, t.siteHeldBytes(), l.held(),
              l.budget());
        }
        for (Tier tier : Tier.values()) {
          for (int k = 0; k < CacheSite.KINDS; k++) {
            long n = left[tier.ordinal()][k];
            if (n > 0) {
              leftover(s, tier, k, n);
            }
          }
        }
      }
    }
  }

  /**
   * Commits the event that stands for {@code n} decisions of {@code kind} no event stood for:
   * the kind's last committed event again (its price, and the ledger as it stood then, so an
   * admission still reads at most its budget), now standing for the {@code n}.
   */
  private void leftover(CacheSite site, Tier tier, int kind, long n) {
    CacheSite.Sample p = site.sample(kind);
    TierLedger l = budgets.ledger(tier);
    long held = p.held() >= 0 ? p.held() : l.held();
    if (kind >= CacheSite.FIRST_RELEASE) {
      if (ReleaseEvent.emit(site.name(), Labels.of(tier), p.chargedBytes(), CacheSite.NAMES[kind],
          held, n)) {
        Holdings.EVENTS.increment();
      }
    } else if (CacheAdmissionEvent.emit(site.name(), Labels.of(tier), p.valueType(),
        p.logicalBytes(), p.storageBytes(), p.chargedBytes(), p.materialized(), p.estimated(),
        CacheSite.NAMES[kind], held, p.budget() >= 0 ? p.budget() : l.budget(),
        p.held() >= 0 ? p.available() : availableOf(tier), n)) {
      admissionEvents.increment();
    }
  }

  /**
   * At the end of every chunk (a rotation, a dump, a recording's stop, the JVM's exit): the
   * period's summaries and leftovers, so the chunk's ledger is whole, then the chunk's sampling
   * account.
   */
  private void closeChunk() {
    synchronized (closing) {
      emitSummaries();
      SamplingEvent.emit(CacheAdmissionEvent.Throttle.RATE.text(),
          ReleaseEvent.Throttle.RATE.text(), chunkDecisions, admissionEvents.sumThenReset(),
          chunkReleases, Holdings.EVENTS.sumThenReset());
      chunkDecisions = 0;
      chunkReleases = 0;
    }
  }
}
