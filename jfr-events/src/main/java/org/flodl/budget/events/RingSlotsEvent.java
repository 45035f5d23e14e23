package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;

/**
 * One reader-ring sizing: how many batches the host-RAM budget buys, and why. One per epoch or
 * loader, so it keeps its stack trace.
 */
@Name(RingSlotsEvent.NAME)
@Label("Ring Slots")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("How many batches the reader ring may hold in host RAM, and why")
public final class RingSlotsEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.RingSlots";

  @Label("Site")
  @Description("The call site: the sites-file block name, or djl for the built-in DJL site")
  String site;

  @Label("Per-Sample Size")
  @Description("Bytes of one sample, 0 while unpriced")
  @DataAmount
  long perSampleBytes;

  @Label("Batch Size")
  @Description("Samples per batch")
  long batchSize;

  @Label("RAM Max Usage")
  @Description("The ram_max_usage knob as given")
  @Percentage
  double ramMaxUsage;

  @Label("Available")
  @Description("Bytes of host RAM the probe reported available, -1 when unmeasured")
  @DataAmount
  long availableBytes;

  @Label("Epoch Batches")
  @Description("Batches in the epoch; the ring never exceeds it")
  long epochBatches;

  @Label("Cache Active")
  @Description("Whether a sample cache shares the budget (ring capped at 8)")
  boolean cacheActive;

  @Label("Budget")
  @Description("The anchored budget the slots were priced against, 0 when not computed")
  @DataAmount
  long budgetBytes;

  @Label("Slots")
  @Description("Batches the ring may hold")
  long slots;

  @Label("Reason")
  @Description(
      "DISABLED, UNMEASURED_FALLBACK, UNPRICED_BATCH, CAPACITY, NO_FIT, EPOCH_CAP or CACHE_CAP")
  String reason;

  /** Commits one ring event when the event is enabled; a disabled event costs a branch. */
  public static void emit(
      String site,
      long perSampleBytes,
      long batchSize,
      double ramMaxUsage,
      long availableBytes,
      long epochBatches,
      boolean cacheActive,
      long budgetBytes,
      long slots,
      String reason) {
    RingSlotsEvent event = new RingSlotsEvent();
    if (event.shouldCommit()) {
      event.site = site;
      event.perSampleBytes = perSampleBytes;
      event.batchSize = batchSize;
      event.ramMaxUsage = ramMaxUsage;
      event.availableBytes = availableBytes;
      event.epochBatches = epochBatches;
      event.cacheActive = cacheActive;
      event.budgetBytes = budgetBytes;
      event.slots = slots;
      event.reason = reason;
      event.commit();
    }
  }
}
