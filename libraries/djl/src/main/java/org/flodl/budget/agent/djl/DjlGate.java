package org.flodl.budget.agent.djl;

import java.lang.ref.WeakReference;
import java.util.Collections;
import java.util.Map;
import java.util.OptionalLong;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.djl.DjlReflection.DeviceRef;
import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.agent.library.DepthContext;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.policy.DepthDecision;
import org.flodl.budget.probes.MemorySnapshot;
import org.flodl.budget.probes.VramReading;

/**
 * The {@code djl} preset's adapter ({@code adapter = djl}): at each {@code DataIterable}
 * constructor (the epoch boundary) it refreshes the probes, decides the depth for the iterable's
 * device from its dataset, sampler and device arguments, and records {@code PrefetchDepth} and, on
 * the host, {@code RingSlots}; at each {@code fetch} of every subtype it prices the batch for the
 * next epoch of its dataset. Arguments are plain Objects: the agent never links against DJL.
 * DataIterable's constructor takes {@code (dataset 0, manager 1, sampler 2, ..., executor 7,
 * preFetchNumber 8, device 9)}.
 */
public final class DjlGate implements DepthAdapter {
  /** The site name the events carry. */
  public static final String SITE = "djl";

  private static final int DATASET = 0;
  private static final int MANAGER = 1;
  private static final int SAMPLER = 2;
  private static final int EXECUTOR = 7;
  private static final int DEVICE = 9;

  private final boolean djlProbe;
  private final Map<Object, DatasetState> datasets =
      Collections.synchronizedMap(new WeakHashMap<>());
  private static final DatasetState UNKNOWN = new DatasetState();
  private volatile Last last = new Last(null, UNKNOWN);

  /** Returns the adapter; {@code djlProbe}: vram_probe=auto lets DJL's CUDA bindings answer. */
  public DjlGate(boolean djlProbe) {
    this.djlProbe = djlProbe;
  }

  /**
   * Past a dataset's first epoch, each epoch prices its first {@value} batches and then one in
   * {@link #SAMPLE_EVERY}: a batch's price costs DJL a native call or two per array, and the first
   * epoch, priced whole, has already seen the largest batch of a dataset whose batches repeat.
   */
  static final int PRICED_FIRST = 8;

  /** One batch in this many is priced after an epoch's first {@link #PRICED_FIRST}. */
  static final int SAMPLE_EVERY = 16;

  /**
   * Per dataset: the largest batch priced this epoch, the batches fetched this epoch, the price
   * decisions use (the largest batch priced in any epoch so far), epochs seen.
   */
  static final class DatasetState {
    final AtomicLong epochMax = new AtomicLong();
    final AtomicLong fetched = new AtomicLong();
    long price;
    volatile int epochs;
  }

  /** A one-entry cache of the last dataset's state (batches of one dataset come in runs). */
  private record Last(WeakReference<Object> dataset, DatasetState state) {}

  DatasetState state(Object dataset) {
    if (dataset == null) {
      return UNKNOWN;
    }
    Last l = last;
    if (l.dataset() != null && l.dataset().get() == dataset) {
      return l.state();
    }
    DatasetState s = datasets.computeIfAbsent(dataset, k -> new DatasetState());
    last = new Last(new WeakReference<>(dataset), s);
    return s;
  }

  /**
   * Returns the prefetch number to construct the epoch's iterable with; 0 means run without the
   * executor (the woven code then passes a null executor and keeps the request: a prefetch number
   * of 0 with an executor makes DJL yield empty epochs).
   */
  @Override
  public int depth(DepthContext e, int prefetch, Object[] args) {
    if (args == null || args.length <= DEVICE) {
      return prefetch;
    }
    boolean hasExecutor = args[EXECUTOR] != null;
    DeviceRef dev = DjlReflection.device(args[DEVICE], args[MANAGER]);
    long batchSize = DjlReflection.batchSize(args[SAMPLER]);
    Object dataset = args[DATASET];
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
      st.fetched.set(0);
      if (seen > 0) {
        st.price = Math.max(st.price, seen);
        source = "batches";
      } else if (first) {
        st.price = Math.max(0, DjlReflection.arrayDatasetBatchBytes(dataset, batchSize, e));
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
    boolean auto = e.prefetchAuto() && hasExecutor;
    int requested = hasExecutor ? prefetch : 0;
    DepthDecision.Decision d =
        DepthDecision.decide(
            inputs(
                dev.cuda(),
                requested,
                price,
                epochBatches,
                first,
                vram,
                avail < 0 ? OptionalLong.empty() : OptionalLong.of(avail),
                e.knob(Knob.RAM_MAX_USAGE),
                e.knob(Knob.VRAM_MAX_USAGE),
                e.cacheActive(),
                auto,
                e.stagerStreamBytes()));
    e.decided(SITE, dev.label(), requested, d);
    int applied = d.applied();
    if (Log.enabled(Log.DEBUG)) {
      Log.debug(
          "DJL epoch on "
              + dev.label()
              + ": batch "
              + price
              + " bytes ("
              + source
              + "), requested "
              + requested
              + ", depth "
              + applied
              + " ("
              + d.reason()
              + ")"
              + (vram != null ? ", vram probe " + vram.probe() : ""));
    }
    return e.observing() || !hasExecutor ? prefetch : applied;
  }

  /**
   * Returns the policy's inputs at a DJL epoch: the device's VRAM reading with the first epoch's
   * activation reserve (the headroom under the cap), or host RAM (the stager's flow quarter when
   * this JVM splits), and the epoch's batches, to which {@code prefetch=auto} caps the depth.
   */
  public static DepthDecision.Inputs inputs(
      boolean cuda,
      int requested,
      long price,
      long epochBatches,
      boolean first,
      VramReading vram,
      OptionalLong hostAvailable,
      double ramMaxUsage,
      double vramMaxUsage,
      boolean cacheActive,
      boolean auto,
      OptionalLong stagerStreamBytes) {
    long used = vram == null || vram.failed() ? Long.MAX_VALUE : vram.usedBytes();
    long total = vram == null || vram.failed() ? 0 : vram.totalBytes();
    return DepthDecision.Inputs.builder()
        .cuda(cuda)
        .requested(requested)
        .batchBytes(price)
        .epochBatches(epochBatches)
        .vramUsed(used)
        .vramTotal(total)
        .vramMaxUsage(vramMaxUsage)
        .activationReserve(
            cuda ? DepthDecision.firstEpochReserve(first, price, used, total, vramMaxUsage) : 0)
        .available(cuda ? OptionalLong.empty() : hostAvailable)
        .maxUsage(ramMaxUsage)
        .cacheActive(cacheActive)
        .prefetchAuto(auto)
        .stagerStreamBytes(cuda ? OptionalLong.empty() : stagerStreamBytes)
        .build();
  }

  /**
   * Prices a batch that {@code fetch} returned on {@code iterable} (any DataIterable subtype):
   * every batch of the dataset's first epoch, then the first {@link #PRICED_FIRST} of each epoch
   * and one in {@link #SAMPLE_EVERY} after; every batch counts as this rank's consumption.
   */
  @Override
  public void batch(DepthContext e, Object iterable, Object batch) {
    if (batch == null) {
      return;
    }
    try {
      DatasetState st = state(DjlReflection.datasetOf(iterable));
      long n = st.fetched.getAndIncrement();
      if (st.epochs > 1 && n >= PRICED_FIRST && n % SAMPLE_EVERY != 0) {
        e.consumed();
        return;
      }
      long bytes = DjlReflection.batchBytes(batch, e);
      if (bytes > 0) {
        e.consumed(); // host_share=auto: this rank's consumption, a batch a unit
        st.epochMax.accumulateAndGet(bytes, Math::max);
      }
    } catch (Throwable t) {
      Log.warnOnce("djl-batch", "DJL: pricing a batch failed (" + t + "); batches unpriced");
    }
  }
}
