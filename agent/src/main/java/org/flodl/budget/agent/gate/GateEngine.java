package org.flodl.budget.agent.gate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.PrefetchDepth;
import org.flodl.budget.policy.RingSlots;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.flodl.budget.policy.pricing.Priced;
import org.flodl.budget.policy.pricing.Retained;
import org.flodl.budget.policy.pricing.RetentionPricer;
import org.flodl.budget.policy.probe.MemoryProbes;
import org.flodl.budget.policy.probe.MemorySnapshot;
import org.flodl.budget.policy.probe.VramReading;

/**
 * The decisions behind {@link Gate}: a cache admission prices the value, reserves its charge
 * against the tier's anchored budget atomically and admits (with the owned copy of an
 * over-slack view) or declines; a depth decision sizes the host ring or the VRAM depth from the
 * last probe and the last batch price; each commits its event. {@code observe} takes the same
 * decisions, books only what {@code enforce} would have admitted, records declines as {@code
 * WOULD_DECLINE} and changes nothing the application sees. Points are bound once, before the
 * engine is installed; the mode and the knobs can change while it runs (the MBean).
 */
public final class GateEngine {
  /** What the engine does with its decisions; {@code off} installs no engine at all. */
  public enum Mode {
    /** Apply every decision. */
    ENFORCE,
    /** Decide and record, change nothing. */
    OBSERVE
  }

  private static final String ADMIT = "ADMIT";
  private static final String ADMIT_MATERIALIZED = "ADMIT_MATERIALIZED";
  private static final String DECLINE = "DECLINE";
  private static final String WOULD_DECLINE = "WOULD_DECLINE";

  private final List<Object> building = new ArrayList<>();
  private final Map<String, CacheSite> cacheSites = new LinkedHashMap<>();
  private final Map<String, DepthSite> depthSites = new HashMap<>();
  private Object[] points = new Object[0];
  private byte[] roles = new byte[0];
  private final Supplier<RetentionPricer> pricerFactory;
  private volatile RetentionPricer pricer;
  private final Budgets budgets;
  private final Holdings holdings = new Holdings();
  private final HostShareSource hostShareSource;
  private volatile Mode mode;
  private volatile boolean prefetchAuto;
  private volatile boolean cacheActive;
  private volatile boolean started;
  private volatile Runnable afterFirstRefresh;

  private static final byte CACHE = 1;
  private static final byte RELEASE = 2;
  private static final byte DEPTH = 3;
  private static final byte BATCH = 4;

  /** Returns an engine pricing with {@code pricer} against budgets from {@code probes}. */
  public GateEngine(Mode mode, boolean prefetchAuto, Supplier<RetentionPricer> pricerFactory,
      Supplier<MemoryProbes> probeFactory, Duration probeInterval, double ramMaxUsage,
      double heapMaxUsage, double vramMaxUsage, DoubleSupplier hostShare) {
    this.mode = mode;
    this.prefetchAuto = prefetchAuto;
    this.pricerFactory = pricerFactory;
    this.hostShareSource = hostShare instanceof HostShareSource ? (HostShareSource) hostShare : null;
    this.budgets = new Budgets(probeFactory, probeInterval, ramMaxUsage, heapMaxUsage,
        vramMaxUsage, hostShare);
  }

  /** Returns the pricer, made on first use (its service lookup costs start-up time). */
  private RetentionPricer pricer() {
    RetentionPricer p = pricer;
    if (p == null) {
      synchronized (this) {
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

  /** Returns the point id of cache-admit site {@code site}'s admission. */
  public synchronized int bindCacheAdmit(String site) {
    return bind(cacheSite(site), CACHE);
  }

  /** Returns the point id of a release point of cache-admit site {@code site}. */
  public synchronized int bindRelease(String site) {
    return bind(cacheSite(site), RELEASE);
  }

  /** Returns the point id of prefetch-depth site {@code site}'s depth. */
  public synchronized int bindDepth(String site, String device, int deviceIndex, long batchBytes) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      s = new DepthSite(site, device, deviceIndex, batchBytes);
      depthSites.put(site, s);
    }
    return bind(s, DEPTH);
  }

  private CacheSite cacheSite(String site) {
    CacheSite s = cacheSites.get(site);
    if (s == null) {
      s = new CacheSite(site, budgets);
      cacheSites.put(site, s);
    }
    return s;
  }

  /** Returns the point id of the batch point of prefetch-depth site {@code site} (bound first). */
  public synchronized int bindBatch(String site) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      throw new IllegalStateException("bind the depth of " + site + " before its batches");
    }
    return bind(s, BATCH);
  }

  private int bind(Object site, byte role) {
    building.add(site);
    int id = building.size() - 1;
    Object[] p = building.toArray();
    byte[] r = new byte[p.length];
    System.arraycopy(roles, 0, r, 0, roles.length);
    r[id] = role;
    roles = r;
    points = p;
    return id;
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
          share.start();
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

  /** Sets the mode (live control). */
  public void mode(Mode newMode) {
    this.mode = newMode;
  }

  /** Returns whether {@code prefetch=auto}. */
  public boolean prefetchAuto() {
    return prefetchAuto;
  }

  /** Returns {ram_max_usage, heap_max_usage, vram_max_usage}. */
  public double[] knobs() {
    return new double[] {budgets.ramMaxUsage(), budgets.heapMaxUsage(), budgets.vramMaxUsage()};
  }

  /** Sets the three knobs and re-budgets every tier at once. */
  public void knobs(double ram, double heap, double vram) {
    budgets.knobs(ram, heap, vram);
  }

  /** Returns each tier's held bytes. */
  public Map<Tier, Long> held() {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      m.put(t, budgets.ledger(t).held());
    }
    return m;
  }

  /** Returns each tier's budget. */
  public Map<Tier, Long> budgets() {
    Map<Tier, Long> m = new EnumMap<>(Tier.class);
    for (Tier t : Tier.values()) {
      m.put(t, budgets.ledger(t).budget());
    }
    return m;
  }

  /** Returns the ledger of {@code tier} (tests and the MBean read it). */
  public TierLedger ledger(Tier tier) {
    return budgets.ledger(tier);
  }

  // ------------------------------------------------------------------------------ DJL hook

  /**
   * Returns the probes read now, every tier re-budgeted: an epoch boundary (DJL's {@code
   * DataIterable}, org.flodl.budget.agent.djl) decides on fresh numbers, not the last tick's.
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

  // ------------------------------------------------------------------------------ decisions

  Object admit(int id, Object value) {
    if (value == null || roles[id] != CACHE) {
      return value;
    }
    CacheSite site = (CacheSite) points[id];
    if (!started) {
      start();
    }
    if (!cacheActive) {
      cacheActive = true;
    }
    if (hostShareSource != null) {
      hostShareSource.count();
    }
    Priced price;
    try {
      price = pricer().estimate(value);
    } catch (Throwable t) {
      if (site.firstPricerFailure()) {
        String msg = "site '" + site.name() + "': pricing a " + value.getClass().getName()
            + " failed (" + t + "); its values are admitted unpriced and unbooked";
        Log.warn(msg);
        if (Recorder.on()) {
          InstrumentedEvent.emit(value.getClass().getName(), site.name(), "PRICER_FAILED", msg);
        }
      }
      return value;
    }
    Tier tier = price.tier();
    budgets.ensureRefreshed(tier);
    long charged = price.chargedBytes();
    if (tier == Tier.HEAP) {
      charged = budgets.heapFootprint(value, charged);
    }
    boolean observe = mode == Mode.OBSERVE;
    TierLedger ledger = budgets.ledger(tier);
    long heldAfter = ledger.reserve(charged);
    if (heldAfter < 0) {
      site.declined(tier, charged);
      record(site, price, charged, false, observe ? WOULD_DECLINE : DECLINE,
          TierLedger.declinedAt(heldAfter), ledger.budget());
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
        site.declined(tier, charged);
        Log.warnOnce("retain-" + site.name(), "site '" + site.name() + "': copying a "
            + value.getClass().getName() + " failed (" + e + "); such values are declined");
        record(site, price, charged, false, DECLINE, ledger.held(), ledger.budget());
        return Gate.DECLINED;
      }
    }
    if (!holdings.track(stored, ledger, charged, site)) {
      return stored; // the same object is retained already, and charged once
    }
    site.admitted(tier, charged, copied);
    long budget = ledger.budget();
    if (tier == Tier.HEAP) {
      budgets.grew(tier, heldAfter, budget);
    }
    record(site, price, charged, copied, price.materialize() ? ADMIT_MATERIALIZED : ADMIT,
        heldAfter, budget);
    return stored;
  }

  private void record(CacheSite site, Priced p, long charged, boolean copied, String decision,
      long held, long budget) {
    if (!Recorder.on()) {
      return;
    }
    CacheAdmissionEvent.emit(site.name(), Labels.of(p.tier()), p.valueType(), p.logicalBytes(),
        p.storageBytes(), charged, copied, decision, held, budget,
        availableOf(p.tier()));
  }

  private long availableOf(Tier tier) {
    if (tier == Tier.DEVICE) {
      VramReading v = budgets.vram(0);
      return v == null || v.failed() ? -1 : Math.max(0, v.totalBytes() - v.usedBytes());
    }
    return budgets.available(tier);
  }

  int depth(int id, int requested) {
    if (roles[id] != DEPTH) {
      return requested;
    }
    DepthSite site = (DepthSite) points[id];
    if (!started) {
      start();
    }
    budgets.ensureRefreshed();
    long batch = site.batchBytes();
    PrefetchDepth d;
    if (site.cuda()) {
      VramReading v = budgets.vram(site.deviceIndex());
      long used = v == null ? Long.MAX_VALUE : v.usedBytes();
      long total = v == null ? 0 : v.totalBytes();
      d = BudgetPolicy.prefetchDepthFromVram(batch, 1, true, used, total,
          budgets.vramMaxUsage(), 0);
    } else {
      // The ring holds batches where they live: heap batches are sized from the heap (what the
      // last probe left available, after the caches), others from host RAM.
      Tier where = site.batchTier();
      boolean heap = where == Tier.HEAP;
      OptionalLong available;
      if (heap) {
        long a = budgets.available(Tier.HEAP);
        available = a < 0 ? OptionalLong.empty() : OptionalLong.of(a);
      } else {
        available = budgets.hostAvailable();
      }
      double knob = heap ? budgets.heapMaxUsage() : budgets.ramMaxUsage();
      RingSlots r = budgets.stager() && !heap && available.isPresent()
          // A stager's prefetch takes the flow quarter of its split.
          ? BudgetPolicy.ringSlotsFromBudget(batch, 1, budgets.ramMaxUsage(),
              available.getAsLong(), budgets.streamBytes(), Long.MAX_VALUE, cacheActive)
          : BudgetPolicy.ringSlotsFromRam(batch, 1, knob, available, Long.MAX_VALUE,
              cacheActive);
      if (Recorder.on()) {
        RingSlotsEvent.emit(site.name(), r.perSampleBytes(), r.batchSize(), r.ramMaxUsage(),
            r.availableBytes(), r.epochBatches(), r.cacheActive(), r.budgetBytes(), r.slots(),
            r.reason().name());
      }
      d = new PrefetchDepth(-1, r.availableBytes(), r.ramMaxUsage(), 0, batch, 0,
          r.budgetBytes(), r.slots(), r.depthReason());
    }
    if (!prefetchAuto) {
      d = d.cappedAt(requested);
    }
    int applied = (int) Math.min(Integer.MAX_VALUE, Math.max(0, d.depth()));
    if (Recorder.on()) {
      PrefetchDepthEvent.emit(site.name(), site.device(), d.usedBytes(), d.totalBytes(),
          d.maxUsage(), d.activationReserve(), d.batchBytes(), requested, applied,
          d.reason().name());
    }
    return mode == Mode.OBSERVE ? requested : applied;
  }

  void release(int id, Object[] arguments, Object returned) {
    if (roles[id] != RELEASE) {
      return;
    }
    if (holdings.release(returned) > 0) {
      return; // the common shape: evict(key) returns the value it let go
    }
    if (arguments != null) {
      for (Object a : arguments) {
        holdings.release(a);
      }
    }
  }

  void batch(int id, Object batch) {
    if (batch == null || roles[id] != BATCH) {
      return;
    }
    DepthSite site = (DepthSite) points[id];
    if (hostShareSource != null) {
      hostShareSource.count();
    }
    Priced p = pricer().estimate(batch);
    site.batchPriced(site.cuda() ? p.logicalBytes() : p.chargedBytes(), p.tier());
  }

  void failed(int id, Throwable t) {
    Object p = id >= 0 && id < points.length ? points[id] : null;
    String name = p instanceof CacheSite ? ((CacheSite) p).name()
        : p instanceof DepthSite ? ((DepthSite) p).name() : "#" + id;
    Log.warnOnce("failed-" + id, "site '" + name + "': the gate failed (" + t
        + "); the call ran as written");
  }

  // ------------------------------------------------------------------------------ periodic

  private void registerPeriodicEvents() {
    MemoryProbeEvent.register(this::fillProbeEvent);
    SiteSummaryEvent.register(this::emitSummaries);
  }

  private void fillProbeEvent(MemoryProbeEvent e) {
    MemorySnapshot s = budgets.snapshot();
    if (s != null) {
      if (s.host() != null) {
        e.host(s.host().availableBytes(), s.host().cgroupLimitBytes(),
            s.host().cgroupUsageBytes());
      }
      if (s.heap() != null) {
        e.heap(s.heap().maxBytes(), s.heap().liveBytes());
      }
      if (s.direct() != null) {
        e.direct(s.direct().usedBytes(), s.direct().maxBytes());
      }
    }
    for (Tier t : Tier.values()) {
      TierLedger l = budgets.ledger(t);
      e.tier(t.label(), l.held(), l.budget());
    }
    VramReading v = budgets.vram(0);
    if (v != null && !v.failed()) {
      e.vram(v.usedBytes(), v.totalBytes());
    }
  }

  private void emitSummaries() {
    List<CacheSite> sites;
    synchronized (this) {
      sites = new ArrayList<>(cacheSites.values());
    }
    for (CacheSite s : sites) {
      long[] c = s.drain();
      TierLedger l = budgets.ledger(s.lastTier());
      SiteSummaryEvent.emit(s.name(), s.lastTier().label(), c[0], c[1], c[2], c[3], c[4], c[5],
          c[6], l.held(), l.budget());
    }
  }
}
