package org.flodl.budget.agent.djl;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.djl.DjlReflection.DeviceRef;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.Log;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.policy.RingSlots;
import org.flodl.budget.policy.probe.MemorySnapshot;
import org.flodl.budget.policy.probe.VramReading;

/**
 * What the advice woven into DJL's {@code DataIterable} calls: {@link #epoch} at each
 * constructor (the epoch boundary: probes refreshed, the depth decided for the iterable's device,
 * {@code PrefetchDepth} and, on the host, {@code RingSlots} recorded), {@link #batch} at each
 * {@code fetch} of every subtype (the batch priced for the next epoch of its dataset) and {@link
 * #constructed} after each constructor (a subtype that overrides {@code fetch} gets it woven).
 * Arguments are plain Objects: the agent never links against DJL. Nothing escapes: on any failure
 * the application's own arguments stand.
 */
public final class DjlGate {
  /** What {@link #epoch} returns when the depth is 0: pass a null executor (synchronous). */
  public static final int DROP_EXECUTOR = -1;
  /** The site name the events carry. */
  public static final String SITE = "djl";

  private static volatile GateEngine engine;
  private static volatile boolean djlProbe;
  private static final Map<Object, DatasetState> DATASETS =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final DatasetState UNKNOWN = new DatasetState();
  private static volatile Last last = new Last(null, UNKNOWN);

  private DjlGate() {}

  /** Installs the engine the DJL advice reaches; {@code djlProbe}: vram_probe=auto. */
  static void install(GateEngine newEngine, boolean useDjlProbe) {
    djlProbe = useDjlProbe;
    engine = newEngine;
  }

  /** Per dataset: the largest batch priced this epoch, the price decisions use, epochs seen. */
  static final class DatasetState {
    final AtomicLong epochMax = new AtomicLong();
    long price;
    int epochs;
  }

  /** A one-entry cache of the last dataset's state (batches of one dataset come in runs). */
  private record Last(WeakReference<Object> dataset, DatasetState state) {}

  static DatasetState state(Object dataset) {
    if (dataset == null) {
      return UNKNOWN;
    }
    Last l = last;
    if (l.dataset() != null && l.dataset().get() == dataset) {
      return l.state();
    }
    DatasetState s = DATASETS.computeIfAbsent(dataset, k -> new DatasetState());
    last = new Last(new WeakReference<>(dataset), s);
    return s;
  }

  /**
   * Returns the prefetch number to construct the epoch's iterable with, or {@link
   * #DROP_EXECUTOR} when the decision is 0 and the iterable must run without its executor (a
   * prefetch number of 0 with an executor makes DJL yield empty epochs).
   */
  public static int epoch(Object dataset, Object manager, Object sampler, boolean hasExecutor,
      int prefetch, Object device) {
    GateEngine e = engine;
    if (e == null) {
      return prefetch;
    }
    try {
      return decide(e, dataset, manager, sampler, hasExecutor, prefetch, device);
    } catch (Throwable t) {
      Log.warnOnce("djl-epoch", "DJL: the epoch decision failed (" + t
          + "); the DataIterable runs as constructed");
      return prefetch;
    }
  }

  private static int decide(GateEngine e, Object dataset, Object manager, Object sampler,
      boolean hasExecutor, int prefetch, Object device) {
    DeviceRef dev = DjlReflection.device(device, manager);
    long batchSize = DjlReflection.batchSize(sampler);
    long size = DjlReflection.datasetSize(dataset);
    long epochBatches = size > 0 && batchSize > 0 ? (size + batchSize - 1) / batchSize : -1;
    DatasetState st = state(dataset);
    boolean first;
    long price;
    String source;
    synchronized (st) {
      first = st.epochs == 0;
      st.epochs++;
      long seen = st.epochMax.getAndSet(0);
      if (seen > 0) {
        st.price = seen;
        source = "batches";
      } else if (first) {
        st.price = Math.max(0, DjlReflection.arrayDatasetBatchBytes(dataset, batchSize));
        source = st.price > 0 ? "dataset" : "unpriced";
      } else {
        source = st.price > 0 ? "earlier batches" : "unpriced";
      }
      price = st.price;
    }
    MemorySnapshot snap = e.refreshAtEpoch();
    VramReading vram = null;
    if (dev.cuda()) {
      vram = djlProbe ? DjlCuda.read(dev.device()) : null;
      if (vram == null) {
        vram = e.vram(dev.index());
      }
    }
    long avail = snap == null || snap.host() == null ? -1 : snap.host().availableBytes();
    double[] knobs = e.knobs();
    boolean auto = e.prefetchAuto() && hasExecutor;
    int requested = hasExecutor ? prefetch : 0;
    EpochPolicy.Decision d = EpochPolicy.decide(new EpochPolicy.Inputs(dev.cuda(), requested,
        price, epochBatches, first, vram, avail < 0 ? OptionalLong.empty() : OptionalLong.of(avail),
        knobs[0], knobs[2], e.cacheActive(), auto, e.stagerStreamBytes()));
    RingSlots r = d.ring();
    boolean recording = Recorder.on();
    if (r != null && recording) {
      RingSlotsEvent.emit(SITE, r.perSampleBytes(), r.batchSize(), r.ramMaxUsage(),
          r.availableBytes(), r.epochBatches(), r.cacheActive(), r.budgetBytes(), r.slots(),
          r.reason().name());
    }
    int applied = d.applied();
    if (recording) {
      PrefetchDepthEvent.emit(SITE, dev.label(), d.depth().usedBytes(), d.depth().totalBytes(),
          d.depth().maxUsage(), d.depth().activationReserve(), d.depth().batchBytes(), requested,
          applied, d.depth().reason().name());
    }
    if (Log.enabled(Log.DEBUG)) {
      Log.debug("DJL epoch on " + dev.label() + ": batch " + price + " bytes (" + source
          + "), requested " + requested + ", depth " + applied + " (" + d.depth().reason() + ")"
          + (vram != null ? ", vram probe " + vram.probe() : ""));
    }
    if (e.mode() == GateEngine.Mode.OBSERVE || !hasExecutor) {
      return prefetch;
    }
    return applied == 0 ? DROP_EXECUTOR : applied;
  }

  /** Prices a batch that {@code fetch} returned on {@code iterable} (any DataIterable subtype). */
  public static void batch(Object iterable, Object batch) {
    if (engine == null || batch == null) {
      return;
    }
    try {
      long bytes = DjlReflection.batchBytes(batch);
      if (bytes > 0) {
        engine.consumed(); // host_share=auto: this rank's consumption, a batch a unit
        state(DjlReflection.datasetOf(iterable)).epochMax.accumulateAndGet(bytes, Math::max);
      }
    } catch (Throwable t) {
      Log.warnOnce("djl-batch", "DJL: pricing a batch failed (" + t + "); batches unpriced");
    }
  }

  /** After a constructor: a subtype that overrides {@code fetch} gets its {@code fetch} woven. */
  public static void constructed(Object iterable) {
    if (engine == null || iterable == null) {
      return;
    }
    try {
      Djl.checkSubtype(iterable.getClass());
    } catch (Throwable t) {
      Log.warnOnce("djl-subtype", "DJL: checking " + iterable.getClass().getName()
          + " failed (" + t + ")");
    }
  }
}
