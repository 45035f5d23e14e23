package org.flodl.budget.events;

/**
 * The names of the flodl events' fields, defined once for whatever reads a recording by name: the
 * agent's report, the findings (the report's and Mission Control's rules), the tests. Each is the
 * field's Java name in its event class, which is the name Flight Recorder records: recordings and
 * Mission Control read it, so a field is never renamed. Each constant says the events (by their
 * class, less {@code Event}) that carry it; {@code EventFieldsTest} checks that the constants and
 * the fields the events declare are the same names. The names of the events themselves are each
 * event class's {@code NAME}.
 */
public final class EventFields {
  private EventFields() {}

  /** The field {@code action} (Reclaim). */
  public static final String ACTION = "action";

  /** The field {@code activationReserve} (PrefetchDepth). */
  public static final String ACTIVATION_RESERVE = "activationReserve";

  /** The field {@code admissions} (SiteSummary). */
  public static final String ADMISSIONS = "admissions";

  /** The field {@code admissionEvents} (Sampling). */
  public static final String ADMISSION_EVENTS = "admissionEvents";

  /** The field {@code admissionThrottle} (Sampling). */
  public static final String ADMISSION_THROTTLE = "admissionThrottle";

  /** The field {@code admittedBytes} (SiteSummary). */
  public static final String ADMITTED_BYTES = "admittedBytes";

  /** The field {@code alreadyHeld} (SiteSummary). */
  public static final String ALREADY_HELD = "alreadyHeld";

  /** The field {@code availableBytes} (CacheAdmission, RamBudget, RingSlots). */
  public static final String AVAILABLE_BYTES = "availableBytes";

  /** The field {@code batchBytes} (PrefetchDepth). */
  public static final String BATCH_BYTES = "batchBytes";

  /** The field {@code batchSize} (RingSlots). */
  public static final String BATCH_SIZE = "batchSize";

  /** The field {@code budgetBytes} (CacheAdmission, RamBudget, RingSlots, SiteSummary). */
  public static final String BUDGET_BYTES = "budgetBytes";

  /** The field {@code bytes} (Release). */
  public static final String BYTES = "bytes";

  /** The field {@code cacheActive} (RingSlots). */
  public static final String CACHE_ACTIVE = "cacheActive";

  /** The field {@code cause} (Release). */
  public static final String CAUSE = "cause";

  /** The field {@code cgroup} (MemoryProbe). */
  public static final String CGROUP = "cgroup";

  /** The field {@code cgroupLimitBytes} (MemoryProbe). */
  public static final String CGROUP_LIMIT_BYTES = "cgroupLimitBytes";

  /** The field {@code cgroupUsageBytes} (MemoryProbe). */
  public static final String CGROUP_USAGE_BYTES = "cgroupUsageBytes";

  /** The field {@code chargedBytes} (CacheAdmission). */
  public static final String CHARGED_BYTES = "chargedBytes";

  /** The field {@code classLoader} (Instrumented). */
  public static final String CLASS_LOADER = "classLoader";

  /** The field {@code className} (Instrumented). */
  public static final String CLASS_NAME = "className";

  /** The field {@code collected} (SiteSummary). */
  public static final String COLLECTED = "collected";

  /** The field {@code collectedBytes} (SiteSummary). */
  public static final String COLLECTED_BYTES = "collectedBytes";

  /** The field {@code decision} (CacheAdmission). */
  public static final String DECISION = "decision";

  /** The field {@code decisions} (CacheAdmission, Release, Sampling). */
  public static final String DECISIONS = "decisions";

  /** The field {@code declinedBytes} (SiteSummary). */
  public static final String DECLINED_BYTES = "declinedBytes";

  /** The field {@code declines} (SiteSummary). */
  public static final String DECLINES = "declines";

  /** The field {@code depth} (PrefetchDepth). */
  public static final String DEPTH = "depth";

  /** The field {@code device} (PrefetchDepth). */
  public static final String DEVICE = "device";

  /** The field {@code deviceAvailableBytes} (MemoryProbe). */
  public static final String DEVICE_AVAILABLE_BYTES = "deviceAvailableBytes";

  /** The field {@code deviceBudgetBytes} (MemoryProbe). */
  public static final String DEVICE_BUDGET_BYTES = "deviceBudgetBytes";

  /** The field {@code deviceHeldBytes} (MemoryProbe). */
  public static final String DEVICE_HELD_BYTES = "deviceHeldBytes";

  /** The field {@code directAvailableBytes} (MemoryProbe). */
  public static final String DIRECT_AVAILABLE_BYTES = "directAvailableBytes";

  /** The field {@code directBudgetBytes} (MemoryProbe). */
  public static final String DIRECT_BUDGET_BYTES = "directBudgetBytes";

  /** The field {@code directHeldBytes} (MemoryProbe, Reclaim). */
  public static final String DIRECT_HELD_BYTES = "directHeldBytes";

  /** The field {@code directMaxBytes} (MemoryProbe). */
  public static final String DIRECT_MAX_BYTES = "directMaxBytes";

  /** The field {@code directUsedAfterBytes} (Reclaim). */
  public static final String DIRECT_USED_AFTER_BYTES = "directUsedAfterBytes";

  /** The field {@code directUsedBeforeBytes} (Reclaim). */
  public static final String DIRECT_USED_BEFORE_BYTES = "directUsedBeforeBytes";

  /** The field {@code directUsedBytes} (MemoryProbe). */
  public static final String DIRECT_USED_BYTES = "directUsedBytes";

  /** The field {@code epochBatches} (RingSlots). */
  public static final String EPOCH_BATCHES = "epochBatches";

  /** The field {@code estimated} (CacheAdmission, SiteSummary). */
  public static final String ESTIMATED = "estimated";

  /** The field {@code file} (RecordingProblem). */
  public static final String FILE = "file";

  /** The field {@code heapAvailableBytes} (MemoryProbe). */
  public static final String HEAP_AVAILABLE_BYTES = "heapAvailableBytes";

  /** The field {@code heapBudgetBytes} (MemoryProbe). */
  public static final String HEAP_BUDGET_BYTES = "heapBudgetBytes";

  /** The field {@code heapHeldBytes} (MemoryProbe). */
  public static final String HEAP_HELD_BYTES = "heapHeldBytes";

  /** The field {@code heapLiveBytes} (MemoryProbe). */
  public static final String HEAP_LIVE_BYTES = "heapLiveBytes";

  /** The field {@code heapMaxBytes} (MemoryProbe). */
  public static final String HEAP_MAX_BYTES = "heapMaxBytes";

  /** The field {@code heldBytes} (CacheAdmission, RamBudget, Release, SiteSummary). */
  public static final String HELD_BYTES = "heldBytes";

  /** The field {@code hostAvailableBytes} (MemoryProbe). */
  public static final String HOST_AVAILABLE_BYTES = "hostAvailableBytes";

  /** The field {@code hostShare} (RamBudget). */
  public static final String HOST_SHARE = "hostShare";

  /** The field {@code key} (Configuration). */
  public static final String KEY = "key";

  /** The field {@code limitBytes} (Reclaim). */
  public static final String LIMIT_BYTES = "limitBytes";

  /** The field {@code logicalBytes} (CacheAdmission). */
  public static final String LOGICAL_BYTES = "logicalBytes";

  /** The field {@code mappedAvailableBytes} (MemoryProbe). */
  public static final String MAPPED_AVAILABLE_BYTES = "mappedAvailableBytes";

  /** The field {@code mappedBudgetBytes} (MemoryProbe). */
  public static final String MAPPED_BUDGET_BYTES = "mappedBudgetBytes";

  /** The field {@code mappedHeldBytes} (MemoryProbe). */
  public static final String MAPPED_HELD_BYTES = "mappedHeldBytes";

  /** The field {@code materialized} (CacheAdmission, SiteSummary). */
  public static final String MATERIALIZED = "materialized";

  /** The field {@code materializedBytes} (SiteSummary). */
  public static final String MATERIALIZED_BYTES = "materializedBytes";

  /** The field {@code maxUsage} (PrefetchDepth, RamBudget). */
  public static final String MAX_USAGE = "maxUsage";

  /** The field {@code message} (Instrumented). */
  public static final String MESSAGE = "message";

  /** The field {@code nativeAvailableBytes} (MemoryProbe). */
  public static final String NATIVE_AVAILABLE_BYTES = "nativeAvailableBytes";

  /** The field {@code nativeBudgetBytes} (MemoryProbe). */
  public static final String NATIVE_BUDGET_BYTES = "nativeBudgetBytes";

  /** The field {@code nativeHeldBytes} (MemoryProbe). */
  public static final String NATIVE_HELD_BYTES = "nativeHeldBytes";

  /** The field {@code outcome} (Instrumented). */
  public static final String OUTCOME = "outcome";

  /** The field {@code perSampleBytes} (RingSlots). */
  public static final String PER_SAMPLE_BYTES = "perSampleBytes";

  /** The field {@code pinnedBytes} (StagerSplit). */
  public static final String PINNED_BYTES = "pinnedBytes";

  /** The field {@code problem} (RecordingProblem). */
  public static final String PROBLEM = "problem";

  /** The field {@code ramMaxUsage} (RingSlots). */
  public static final String RAM_MAX_USAGE = "ramMaxUsage";

  /** The field {@code ramSource} (MemoryProbe). */
  public static final String RAM_SOURCE = "ramSource";

  /** The field {@code reason} (PrefetchDepth, Reclaim, RingSlots). */
  public static final String REASON = "reason";

  /** The field {@code releasedBytes} (SiteSummary). */
  public static final String RELEASED_BYTES = "releasedBytes";

  /** The field {@code releases} (Sampling, SiteSummary). */
  public static final String RELEASES = "releases";

  /** The field {@code releaseEvents} (Sampling). */
  public static final String RELEASE_EVENTS = "releaseEvents";

  /** The field {@code releaseThrottle} (Sampling). */
  public static final String RELEASE_THROTTLE = "releaseThrottle";

  /** The field {@code requestedDepth} (PrefetchDepth). */
  public static final String REQUESTED_DEPTH = "requestedDepth";

  /** The field {@code ringBytes} (RamBudget). */
  public static final String RING_BYTES = "ringBytes";

  /**
   * The field {@code site} (CacheAdmission, Instrumented, PrefetchDepth, Release, RingSlots,
   * SiteSummary).
   */
  public static final String SITE = "site";

  /** The field {@code siteHeldBytes} (SiteSummary). */
  public static final String SITE_HELD_BYTES = "siteHeldBytes";

  /** The field {@code slots} (RingSlots). */
  public static final String SLOTS = "slots";

  /** The field {@code source} (Configuration). */
  public static final String SOURCE = "source";

  /** The field {@code storageBytes} (CacheAdmission). */
  public static final String STORAGE_BYTES = "storageBytes";

  /** The field {@code streamBytes} (StagerSplit). */
  public static final String STREAM_BYTES = "streamBytes";

  /** The field {@code tier} (CacheAdmission, RamBudget, Release, SiteSummary). */
  public static final String TIER = "tier";

  /** The field {@code totalBytes} (PrefetchDepth, StagerSplit). */
  public static final String TOTAL_BYTES = "totalBytes";

  /** The field {@code unpriced} (SiteSummary). */
  public static final String UNPRICED = "unpriced";

  /** The field {@code usageAfterBytes} (Reclaim). */
  public static final String USAGE_AFTER_BYTES = "usageAfterBytes";

  /** The field {@code usageBeforeBytes} (Reclaim). */
  public static final String USAGE_BEFORE_BYTES = "usageBeforeBytes";

  /** The field {@code usedBytes} (PrefetchDepth). */
  public static final String USED_BYTES = "usedBytes";

  /** The field {@code value} (Configuration). */
  public static final String VALUE = "value";

  /** The field {@code valueType} (CacheAdmission). */
  public static final String VALUE_TYPE = "valueType";

  /** The field {@code vramTotalBytes} (MemoryProbe). */
  public static final String VRAM_TOTAL_BYTES = "vramTotalBytes";

  /** The field {@code vramUsedBytes} (MemoryProbe). */
  public static final String VRAM_USED_BYTES = "vramUsedBytes";

  /** The field {@code wouldDeclines} (SiteSummary). */
  public static final String WOULD_DECLINES = "wouldDeclines";

  /**
   * What follows a tier label ({@code heap}, {@code direct}, {@code native}, {@code mapped}, {@code
   * device}) in MemoryProbe's per-tier field of the bytes the tier's probe reports available:
   * {@code heap + PROBE_AVAILABLE_SUFFIX} is {@link #HEAP_AVAILABLE_BYTES}.
   */
  public static final String PROBE_AVAILABLE_SUFFIX = "AvailableBytes";

  /** What follows a tier label in MemoryProbe's per-tier field of the bytes the tier holds. */
  public static final String PROBE_HELD_SUFFIX = "HeldBytes";

  /** What follows a tier label in MemoryProbe's per-tier field of the tier's budget. */
  public static final String PROBE_BUDGET_SUFFIX = "BudgetBytes";
}
