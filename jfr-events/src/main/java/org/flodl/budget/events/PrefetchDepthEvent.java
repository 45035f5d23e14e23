package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;

/**
 * One prefetch-depth decision: the VRAM probe's reading, the knobs, the batch price, the depth the
 * application asked for and the depth it got, and why. One per epoch or loader, so it keeps its
 * stack trace: it shows which loader asked.
 */
@Name(PrefetchDepthEvent.NAME)
@Label("Prefetch Depth")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("How many batches a loader may prefetch, and why")
public final class PrefetchDepthEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.PrefetchDepth";

  @Label("Site")
  @Description("The call site: the sites-file block name, or djl for the built-in DJL site")
  String site;

  @Label("Device")
  @Description("Where batches go: cpu or cuda:N")
  String device;

  @Label("VRAM Used")
  @Description(
      "Bytes the VRAM probe reported in use (Long.MAX_VALUE when the probe failed; -1 on the host, where no GPU is read)")
  @DataAmount
  long usedBytes;

  @Label("VRAM Total")
  @Description(
      "Bytes of VRAM the probe reported in total (0 when the probe failed; -1 on the host)")
  @DataAmount
  long totalBytes;

  @Label("Max Usage")
  @Description(
      "The knob as given: vram_max_usage on a GPU; on the host the ring's, ram_max_usage (heap_max_usage for batches on the heap)")
  @Percentage
  double maxUsage;

  @Label("Activation Reserve")
  @Description("Bytes of VRAM held back for activations (0 past the first step, and on the host)")
  @DataAmount
  long activationReserve;

  @Label("Batch Size")
  @Description("Bytes of one batch, 0 while no batch has been priced")
  @DataAmount
  long batchBytes;

  @Label("Requested Depth")
  @Description("The depth the application asked for, in batches")
  long requestedDepth;

  @Label("Depth")
  @Description("The depth applied, in batches (0 is the synchronous path)")
  long depth;

  @Label("Reason")
  @Description(
      "On a GPU CAPACITY, DOUBLE_BUFFER_FLOOR, SYNC_FALLBACK, UNPRICED_BATCH or PROBE_FAILED; on the host the ring's reason (CAPACITY, UNPRICED_BATCH, UNMEASURED_FALLBACK, NO_FIT, DISABLED, EPOCH_CAP, CACHE_CAP; its inputs are in the RingSlots event); REQUESTED on either when prefetch=cap kept a lower request")
  String reason;

  /** Commits one depth event when the event is enabled; a disabled event costs a branch. */
  public static void emit(
      String site,
      String device,
      long usedBytes,
      long totalBytes,
      double maxUsage,
      long activationReserve,
      long batchBytes,
      long requestedDepth,
      long depth,
      String reason) {
    PrefetchDepthEvent event = new PrefetchDepthEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.device = device;
      event.usedBytes = usedBytes;
      event.totalBytes = totalBytes;
      event.maxUsage = maxUsage;
      event.activationReserve = activationReserve;
      event.batchBytes = batchBytes;
      event.requestedDepth = requestedDepth;
      event.depth = depth;
      event.reason = reason;
      event.commit();
    }
  }
}
