package org.flodl.budget.events;

import java.util.function.Consumer;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * The periodic memory reading (1 s by default): what each probe saw and what each tier holds
 * against its budget. In Mission Control it is the graph of the budget over time. The agent
 * registers a filler with {@link #register}; a field the filler leaves unset reads -1, unknown.
 */
@Name(MemoryProbeEvent.NAME)
@Label("Memory Probe")
@Category({Categories.ROOT, Categories.BUDGET})
@Description(
    "Each memory tier's available, held and budget bytes, and the GPU's, read periodically")
@Period("1 s")
@StackTrace(false)
public final class MemoryProbeEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.MemoryProbe";

  private static final PeriodicHook HOOK = new PeriodicHook(MemoryProbeEvent.class);

  @Label("Host Available")
  @Description("Host RAM available (cgroup-aware), -1 when unknown")
  @DataAmount
  long hostAvailableBytes = -1;

  @Label("RAM Source")
  @Description("Where host RAM was read: proc, proc+cgroup-v1, proc+cgroup-v2, mxbean, fixed")
  String ramSource;

  @Label("Cgroup")
  @Description("The memory cgroup whose limit binds (its folder), empty when none does")
  String cgroup;

  @Label("Cgroup Limit")
  @Description("The container's memory limit, -1 when none")
  @DataAmount
  long cgroupLimitBytes = -1;

  @Label("Cgroup Usage")
  @Description("The container's memory usage, -1 when unknown")
  @DataAmount
  long cgroupUsageBytes = -1;

  @Label("Heap Max")
  @Description("The heap's maximum size")
  @DataAmount
  long heapMaxBytes = -1;

  @Label("Heap Live")
  @Description("Live heap after the last GC")
  @DataAmount
  long heapLiveBytes = -1;

  @Label("Direct Used")
  @Description("Bytes of direct ByteBuffers in use")
  @DataAmount
  long directUsedBytes = -1;

  @Label("Direct Max")
  @Description("MaxDirectMemorySize")
  @DataAmount
  long directMaxBytes = -1;

  @Label("Heap Available")
  @Description(
      "What the heap tier's probe reports available (max heap minus live heap after the last GC), -1 when unknown")
  @DataAmount
  long heapAvailableBytes = -1;

  @Label("Heap Held")
  @Description("Bytes the heap tier's caches hold")
  @DataAmount
  long heapHeldBytes = -1;

  @Label("Heap Budget")
  @Description("The heap tier's budget")
  @DataAmount
  long heapBudgetBytes = -1;

  @Label("Direct Available")
  @Description(
      "What the direct tier's probe reports available (min(host available, MaxDirectMemorySize minus direct used)), -1 when unknown")
  @DataAmount
  long directAvailableBytes = -1;

  @Label("Direct Held")
  @Description("Bytes the direct tier's caches hold")
  @DataAmount
  long directHeldBytes = -1;

  @Label("Direct Budget")
  @Description("The direct tier's budget")
  @DataAmount
  long directBudgetBytes = -1;

  @Label("Native Available")
  @Description("What the native tier's probe reports available (host available), -1 when unknown")
  @DataAmount
  long nativeAvailableBytes = -1;

  @Label("Native Held")
  @Description("Bytes the native tier's caches hold")
  @DataAmount
  long nativeHeldBytes = -1;

  @Label("Native Budget")
  @Description("The native tier's budget")
  @DataAmount
  long nativeBudgetBytes = -1;

  @Label("Mapped Available")
  @Description("What the mapped tier's probe reports available (host RAM), -1 when unknown")
  @DataAmount
  long mappedAvailableBytes = -1;

  @Label("Mapped Held")
  @Description("Bytes the mapped tier's caches hold (memory-mapped files)")
  @DataAmount
  long mappedHeldBytes = -1;

  @Label("Mapped Budget")
  @Description("The mapped tier's budget")
  @DataAmount
  long mappedBudgetBytes = -1;

  @Label("Device Available")
  @Description("What the device tier's probe reports available (free VRAM), -1 when unknown")
  @DataAmount
  long deviceAvailableBytes = -1;

  @Label("Device Held")
  @Description("Bytes the device tier's caches hold")
  @DataAmount
  long deviceHeldBytes = -1;

  @Label("Device Budget")
  @Description("The device tier's budget")
  @DataAmount
  long deviceBudgetBytes = -1;

  @Label("VRAM Used")
  @Description("Bytes of VRAM in use, -1 when there is no GPU or the probe failed")
  @DataAmount
  long vramUsedBytes = -1;

  @Label("VRAM Total")
  @Description("Bytes of VRAM in total, -1 when there is no GPU or the probe failed")
  @DataAmount
  long vramTotalBytes = -1;

  /** Returns this event with where host RAM was read and which cgroup binds (null: none). */
  public MemoryProbeEvent source(String ramSource, String cgroup) {
    this.ramSource = ramSource;
    this.cgroup = cgroup == null ? "" : cgroup;
    return this;
  }

  /** Returns this event with the host probe's reading set. */
  public MemoryProbeEvent host(long availableBytes, long cgroupLimitBytes, long cgroupUsageBytes) {
    this.hostAvailableBytes = availableBytes;
    this.cgroupLimitBytes = cgroupLimitBytes;
    this.cgroupUsageBytes = cgroupUsageBytes;
    return this;
  }

  /** Returns this event with the heap probe's reading set. */
  public MemoryProbeEvent heap(long maxBytes, long liveBytes) {
    this.heapMaxBytes = maxBytes;
    this.heapLiveBytes = liveBytes;
    return this;
  }

  /** Returns this event with the direct-memory probe's reading set. */
  public MemoryProbeEvent direct(long usedBytes, long maxBytes) {
    this.directUsedBytes = usedBytes;
    this.directMaxBytes = maxBytes;
    return this;
  }

  /**
   * Returns this event with one tier's held and budget bytes set; {@code tier} is a tier label
   * ({@code heap}, {@code direct}, {@code native}, {@code mapped}, {@code device}, any case),
   * others are ignored.
   */
  public MemoryProbeEvent tier(String tier, long heldBytes, long budgetBytes) {
    return tier(tier, -1, heldBytes, budgetBytes);
  }

  /**
   * Returns this event with one tier's available, held and budget bytes set (-1 for unknown);
   * {@code tier} is a tier label ({@code heap}, {@code direct}, {@code native}, {@code mapped},
   * {@code device}, any case), others are ignored.
   */
  public MemoryProbeEvent tier(String tier, long availableBytes, long heldBytes, long budgetBytes) {
    switch (tier.toLowerCase(java.util.Locale.ROOT)) {
      case "heap":
        heapAvailableBytes = availableBytes;
        heapHeldBytes = heldBytes;
        heapBudgetBytes = budgetBytes;
        break;
      case "direct":
        directAvailableBytes = availableBytes;
        directHeldBytes = heldBytes;
        directBudgetBytes = budgetBytes;
        break;
      case "native":
        nativeAvailableBytes = availableBytes;
        nativeHeldBytes = heldBytes;
        nativeBudgetBytes = budgetBytes;
        break;
      case "mapped":
        mappedAvailableBytes = availableBytes;
        mappedHeldBytes = heldBytes;
        mappedBudgetBytes = budgetBytes;
        break;
      case "device":
        deviceAvailableBytes = availableBytes;
        deviceHeldBytes = heldBytes;
        deviceBudgetBytes = budgetBytes;
        break;
      default:
        break;
    }
    return this;
  }

  /** Returns this event with the VRAM probe's reading set. */
  public MemoryProbeEvent vram(long usedBytes, long totalBytes) {
    this.vramUsedBytes = usedBytes;
    this.vramTotalBytes = totalBytes;
    return this;
  }

  /**
   * Returns true when {@code filler} now fills one event each period (replacing an earlier filler);
   * the event is committed after the filler returns, and only while it is enabled.
   */
  public static boolean register(Consumer<MemoryProbeEvent> filler) {
    return HOOK.register(() -> emit(filler));
  }

  /**
   * Commits one event now, filled by {@code filler}, when the event is enabled (outside its period:
   * a chunk that ends before the period's first tick); returns whether it was.
   */
  public static boolean emit(Consumer<MemoryProbeEvent> filler) {
    MemoryProbeEvent event = new MemoryProbeEvent();
    if (!event.shouldCommit()) {
      return false;
    }
    filler.accept(event);
    event.commit();
    return true;
  }

  /** Returns true when a filler was registered and has been removed. */
  public static boolean unregister() {
    return HOOK.unregister();
  }
}
