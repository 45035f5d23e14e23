package org.flodl.budget.agent.gate;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.RetentionPricer;

/**
 * The decisions behind {@link Gate}, and the engine's face to the rest of the agent. Each entry
 * point finds its point in the table of bound points and hands it to its job: a cache-admit site's
 * to {@link Admissions}, a prefetch-depth site's to {@link Depths}; the sites are bound through the
 * {@link PointRegistry}, and {@link PeriodicEvents} commits the periodic events. Points are bound
 * before the engine is installed, and more as bodies are found in supertypes of the sites' types;
 * the mode and the knobs can change while it runs (the MBean). While a thread works inside the
 * engine it is marked {@link GateThread#inGate}: woven code it reaches passes through, and no lock
 * of the engine is held while Flight Recorder or the MBean server is called. Over 300 lines for one
 * job, the facade: each entry point of {@link Decisions}, each call of the agent's other packages.
 */
public final class GateEngine implements Decisions {
  /** The bound points by id; every decision reads it, so it is a field of the engine itself. */
  private volatile Point[] points = new Point[0];

  final Budgets budgets;
  final Holdings holdings = new Holdings();
  final HostShareSource hostShareSource;

  /** CacheAdmission events committed (the sampled ones), for the chunk's sampling account. */
  final LongAdder admissionEvents = new LongAdder();

  private final PointRegistry registry;
  private final PeriodicEvents periodic;
  private final LazyPricer pricer;
  private volatile Mode mode;
  private volatile boolean prefetchAuto;
  private volatile boolean cacheActive;
  private final EngineStart starter;

  /** Returns an engine pricing with its settings' pricer against budgets from their probes. */
  public GateEngine(EngineSettings s) {
    this.mode = engineMode(s.mode);
    this.prefetchAuto = s.prefetchAuto;
    this.pricer = new LazyPricer(s.pricerFactory);
    this.hostShareSource = s.hostShare instanceof HostShareSource h ? h : null;
    this.budgets =
        new Budgets(
            s.probeFactory,
            s.vramProbe,
            s.probeInterval,
            s.ramMaxUsage,
            s.heapMaxUsage,
            s.vramMaxUsage,
            s.hostShare);
    this.registry = new PointRegistry(budgets);
    HostShareSource.countSites(hostShareSource, registry); // the rate: the sites' decisions
    this.periodic = new PeriodicEvents(this, budgets, registry, admissionEvents);
    this.starter = new EngineStart(budgets, holdings, periodic, hostShareSource);
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
  RetentionPricer pricer() {
    return pricer.get();
  }

  // ------------------------------------------------------------------------------ binding

  /** Makes this JVM a stager: budgets split 3:1 between its caches and its prefetch. */
  public void stager(boolean on) {
    budgets.stager(on);
  }

  /**
   * Returns the point id of an admission at cache-admit site {@code site}: of an argument or of the
   * returned value, at a method body or around a call; {@code decline} evicts by key (null: none);
   * {@code wraps} wraps the argument instead of pricing it (null: none).
   */
  public synchronized int bindAdmit(
      String site, boolean returned, boolean call, Decline decline, ArgumentAdapter wraps) {
    return bind(registry.admit(site, returned, call, decline, wraps));
  }

  /** Makes cache-admit site {@code site} keep its views uncopied ({@code views = keep}). */
  public synchronized void keepViews(String site) {
    registry.keepViews(site);
  }

  /** Returns the point id of a release point of cache-admit site {@code site}. */
  public synchronized int bindRelease(String site) {
    return bind(registry.release(site));
  }

  /** Returns the point id of prefetch-depth site {@code site}'s depth. */
  public synchronized int bindDepth(
      String site,
      String device,
      int deviceIndex,
      long batchBytes,
      long activationReserve,
      boolean callSite,
      DepthAdapter adapter) {
    return bind(
        registry.depth(
            site, device, deviceIndex, batchBytes, activationReserve, callSite, adapter));
  }

  /** Returns the point id of a batch point of prefetch-depth site {@code site} (bound first). */
  public synchronized int bindBatch(String site) {
    return bind(registry.batch(site));
  }

  /** Returns the point id of {@code hook}, of cache-admit site {@code site} (null: a library's). */
  public synchronized int bindHook(String site, EntryHook hook) {
    return bind(registry.hook(site, hook));
  }

  /**
   * Returns a point like {@code basePoint} that decides only for receivers that are instances of
   * {@code receiverType}: a body a subtype inherits from a supertype that is not the site's type.
   */
  public synchronized int bindForReceivers(int basePoint, String receiverType) {
    return bind(PointRegistry.forReceivers(points[basePoint], receiverType));
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
    starter.onStart(afterFirstRefresh);
  }

  /** Counts one batch of this rank's consumption (a batch seen elsewhere, e.g. DJL's fetch). */
  public void consumed() {
    consumed(GateThread.current());
  }

  /** {@link #consumed()} on the cell of {@code t}, the calling thread's state. */
  void consumed(GateThread t) {
    if (hostShareSource != null) {
      hostShareSource.countBatch(t);
    }
  }

  /** Starts the probe thread and the periodic events now (attach, or a first decision). */
  public void start() {
    starter.start();
  }

  /** Marks that a cache-admit site has decided. */
  void cacheDecided() {
    if (!cacheActive) {
      cacheActive = true;
    }
  }

  // ------------------------------------------------------------------------------ live control

  /** Returns the mode. */
  public Mode mode() {
    return mode;
  }

  /** Sets the mode (live control): enforce or observe ({@code off} needs a restart). */
  public void mode(Mode newMode) {
    this.mode = engineMode(newMode);
    if (newMode == Mode.OBSERVE && Admission.steering) {
      Steering.giveBack(); // observe changes nothing: each cache's own bound is its own again
    }
  }

  private static Mode engineMode(Mode m) {
    if (m != Mode.ENFORCE && m != Mode.OBSERVE) {
      throw new IllegalArgumentException(
          "mode '"
              + (m == null ? "null" : m.label())
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
    return budgets.knobs.get(knob);
  }

  /** Sets the usage cap {@code knob} and re-budgets at once. */
  public void knob(Knob knob, double value) {
    budgets.knob(knob, value);
  }

  /** Returns each tier's held bytes. */
  public Map<Tier, Long> held() {
    return budgets.perTier(true);
  }

  /** Returns each tier's budget. */
  public Map<Tier, Long> budgets() {
    return budgets.perTier(false);
  }

  /** Returns the bytes {@code tier} holds now. */
  public long held(Tier tier) {
    return budgets.ledger(tier).held();
  }

  /** Returns the budget of {@code tier} now. */
  public long budget(Tier tier) {
    return budgets.ledger(tier).budget();
  }

  /**
   * Has the refreshes read device 0 from the first on (a site on a GPU, or a {@code fixed:} VRAM
   * probe); otherwise the GPU probes start only at the first device decision.
   */
  public void expectDevice() {
    budgets.expectDevice();
  }

  /** Returns the names of the cache-admit sites and the prefetch-depth sites, in binding order. */
  public List<String> siteNames(boolean cache) {
    return registry.names(cache);
  }

  /** Returns cache-admit site {@code name}'s counts from its start to now, or null. */
  public SiteTotals totals(String name) {
    CacheSite s = registry.cacheSiteOrNull(name);
    return s == null ? null : s.totalsNow();
  }

  // ------------------------------------------------------------------------------ adapters

  /** Returns whether a cache-admit site has decided (a host ring then leaves it room). */
  public boolean cacheActive() {
    return cacheActive;
  }

  /** Returns whether the engine decides and records only ({@code mode=observe}). */
  public boolean observing() {
    return mode == Mode.OBSERVE;
  }

  // ------------------------------------------------------------------------------ decisions

  @Override
  public Object admit(int id, Object receiver, Object value) {
    return point(id) instanceof Point.Admit a
        ? Admissions.admit(this, a, receiver, null, value)
        : value;
  }

  @Override
  public Object admitEntry(int id, Object receiver, Object key, Object value) {
    return point(id) instanceof Point.Admit a
        ? Admissions.admit(this, a, receiver, key, value)
        : value;
  }

  @Override
  public void enter(int id) {
    if (point(id) instanceof Point.Admit a) {
      GateThread.current().enter(a.site().index());
    }
  }

  @Override
  public void leave(int id, boolean threw) {
    if (point(id) instanceof Point.Admit a) {
      Admissions.leave(holdings, a, threw);
    }
  }

  @Override
  public boolean returned(int id, Object receiver, Object value) {
    return point(id) instanceof Point.Admit a && Admissions.returned(this, a, receiver, value);
  }

  @Override
  public Object admitCall(int id, Object value) {
    return point(id) instanceof Point.Admit a ? Admissions.admitCall(this, a, value) : value;
  }

  @Override
  public boolean returnedCall(int id, Object value) {
    return point(id) instanceof Point.Admit a && Admissions.returnedCall(this, a, value);
  }

  @Override
  public Object decline(int id, Object receiver, Object[] args, boolean answering)
      throws Decline.Threw {
    return point(id) instanceof Point.Admit a
        ? Admissions.decline(this, a, receiver, args, answering)
        : null;
  }

  @Override
  public void release(int id, Object[] arguments, Object returned) {
    if (point(id) instanceof Point.Release) {
      Admissions.release(holdings, arguments, returned);
    }
  }

  @Override
  public int depth(int id, int requested, Object[] arguments) {
    return point(id) instanceof Point.Depth d
        ? Depths.depth(this, d.site(), requested, arguments)
        : requested;
  }

  @Override
  public void batch(int id, Object receiver, Object batch) {
    if (batch != null && point(id) instanceof Point.Batch b) {
      Depths.batch(this, b.site(), receiver, batch);
    }
  }

  @Override
  public void hook(int id, Object receiver) {
    if (receiver != null && point(id) instanceof Point.Hook h) {
      Admissions.hook(this, h, receiver, null);
    }
  }

  @Override
  public void hook(int id, Object receiver, Object[] arguments) {
    if (receiver != null && point(id) instanceof Point.Hook h) {
      Admissions.hook(this, h, receiver, arguments);
    }
  }

  @Override
  public void failed(int id, Throwable t) {
    String name = PointRegistry.siteName(point(id), id);
    Log.warnOnce(
        "failed-" + name,
        "site '"
            + name
            + "': the gate failed ("
            + Text.clip(String.valueOf(t), 160)
            + "); the call ran as written");
  }
}
