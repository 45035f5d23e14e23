package org.flodl.budget.findings;

import static org.flodl.budget.events.EventFields.ACTION;
import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMISSION_EVENTS;
import static org.flodl.budget.events.EventFields.ADMISSION_THROTTLE;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CGROUP_LIMIT_BYTES;
import static org.flodl.budget.events.EventFields.CGROUP_USAGE_BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.COLLECTED;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.ESTIMATED;
import static org.flodl.budget.events.EventFields.HEAP_MAX_BYTES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.LIMIT_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.MATERIALIZED_BYTES;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.MESSAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.PROBE_BUDGET_SUFFIX;
import static org.flodl.budget.events.EventFields.PROBE_HELD_SUFFIX;
import static org.flodl.budget.events.EventFields.PROBLEM;
import static org.flodl.budget.events.EventFields.RAM_SOURCE;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.UNPRICED;
import static org.flodl.budget.events.EventFields.USAGE_AFTER_BYTES;
import static org.flodl.budget.events.EventFields.USAGE_BEFORE_BYTES;
import static org.flodl.budget.events.EventFields.VALUE;
import static org.flodl.budget.events.EventFields.WOULD_DECLINES;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.ReclaimEvent;
import org.flodl.budget.events.RecordingProblemEvent;
import org.flodl.budget.events.SamplingEvent;
import org.flodl.budget.events.SiteSummaryEvent;

/**
 * What a recording's flodl events say, gathered event by event from any reader ({@link #accept}):
 * per cache site its exact ledger (the {@code SiteSummary} sums) and what its sampled per-decision
 * events add (what materializing saved), per prefetch site its depths against the requests, per
 * tier the last budget's inputs and whether the budget fell below what was held, the memory probe's
 * container and heap readings, what was woven or failed, reclaims, recording problems and the
 * sampling's account. {@link Findings} draws its findings from these alone.
 */
public final class Facts {
  /** One cache site's sums over the recording. */
  public static final class Site {
    public final String name;
    public final Map<String, Long> declinesByTier = new TreeMap<>();
    public String tier = "";
    public long admissions;
    public long declines;
    public long wouldDeclines;
    public long unpriced;
    public long estimated;
    public long alreadyHeld;
    public long materialized;
    public long materializedBytes;
    public long admittedBytes;
    public long declinedBytes;
    public long releases;
    public long collected;
    public long summaries;

    /** Per-decision events' weighted sums, for recordings without summaries and for savings. */
    public long eventDecisions;

    public long eventDeclines;
    public long eventAdmissions;

    /** Storage bytes the materialized copies let go (storage − charged, weighted). */
    public long savedBytes;

    /** When the site's last recorded decline was taken (-1: none), and its budget. */
    public long lastDeclineMillis = -1;

    public long lastDeclineBudget = -1;

    Site(String name) {
      this.name = name;
    }

    /** Returns the decisions: the summaries' where there are any, else the events' weights. */
    public long decisions() {
      return summaries > 0 ? admissions + declines : eventDecisions;
    }

    /** Returns the declines: the summaries' where there are any, else the events' weights. */
    public long declineCount() {
      return summaries > 0 ? declines : eventDeclines;
    }
  }

  /** One prefetch site's depth decisions. */
  public static final class Depth {
    public final String name;
    public String device = "";
    public long decisions;
    public long below;
    public final Map<String, Long> belowByReason = new TreeMap<>();
    public long lastRequested = -1;
    public long lastDepth = -1;

    /** The lowest depth given below a request, and that request. */
    public long lowestDepth = -1;

    public long lowestRequested = -1;
    long lastAt = Long.MIN_VALUE;

    Depth(String name) {
      this.name = name;
    }
  }

  /** One tier's last budget and its inputs, and how often it fell below what was held. */
  public static final class Tier {
    public final String name;
    public long budgets;
    public long available = -1;
    public long held = -1;
    public double maxUsage = Double.NaN;
    public double hostShare = Double.NaN;
    public long budget = -1;
    public long probesOverBudget;
    public long mostOverBytes;
    long lastAt = Long.MIN_VALUE;

    /** Every budget computed, by time (ties: the larger), to find the one in force at a time. */
    final TreeMap<Long, Tier> byTime = new TreeMap<>();

    Tier(String name) {
      this.name = name;
    }

    /** Returns the budget (with its inputs) in force at {@code millis}: the last before it. */
    public Tier at(long millis) {
      Map.Entry<Long, Tier> e = byTime.floorEntry(millis);
      return e == null ? this : e.getValue();
    }
  }

  public final Map<String, Site> sites = new TreeMap<>();
  public final Map<String, Depth> depths = new TreeMap<>();
  public final Map<String, Tier> tiers = new LinkedHashMap<>();

  /** Per site, the classes woven; per site, the weave problems (outcome: message). */
  public final Map<String, Long> woven = new TreeMap<>();

  public final Map<String, List<String>> weaveProblems = new TreeMap<>();

  /** The reclaims, by time (a key per event). */
  public final TreeMap<Long, String> reclaims = new TreeMap<>();

  public final List<String> recordingProblems = new ArrayList<>();
  public final Map<String, String> configuration = new TreeMap<>();
  private final Map<String, Long> configurationAt = new TreeMap<>();
  private long samplingAt = Long.MIN_VALUE;
  public long flodlEvents;
  public long probes;
  public long heapMaxBytes = -1;
  public long cgroupLimitBytes = -1;
  public long cgroupPeakBytes = -1;
  public String ramSource;
  public long sampledEvents;
  public long sampledDecisions;
  public String admissionThrottle;
  public long firstEventMillis = Long.MAX_VALUE;
  public long recordingStartMillis = -1;
  public long maxSizeBytes = -1;

  /** Takes one event of any type (non-flodl ones are read for the recording's start only). */
  public void accept(RecordedFields e) {
    String type = e.type();
    if (type.equals("jdk.ActiveRecording")) {
      String name = e.text("name");
      long start = e.number("recordingStart");
      if ((recordingStartMillis < 0 || "flodl-budget".equals(name))
          && start > 0
          && start != Long.MAX_VALUE) {
        recordingStartMillis = start;
        long size = e.number("maxSize");
        maxSizeBytes = size == Long.MAX_VALUE ? 0 : size;
      }
      return;
    }
    if (!type.startsWith("flodl.")) {
      return;
    }
    flodlEvents++;
    firstEventMillis = Math.min(firstEventMillis, e.startMillis());
    switch (type) {
      case SiteSummaryEvent.NAME -> summary(e);
      case CacheAdmissionEvent.NAME -> admission(e);
      case PrefetchDepthEvent.NAME -> depth(e);
      case RamBudgetEvent.NAME -> budget(e);
      case MemoryProbeEvent.NAME -> probe(e);
      case ReclaimEvent.NAME ->
          reclaims.put(
              e.startMillis() * 1000 + reclaims.size(),
              lower(e.text(ACTION))
                  + " ("
                  + Format.orElse(e.text(REASON), "?")
                  + "): usage "
                  + Format.bytes(e.number(USAGE_BEFORE_BYTES))
                  + " -> "
                  + Format.bytes(e.number(USAGE_AFTER_BYTES))
                  + " of "
                  + Format.bytes(e.number(LIMIT_BYTES)));
      case InstrumentedEvent.NAME -> instrumented(e);
      case RecordingProblemEvent.NAME -> recordingProblems.add(Format.orElse(e.text(PROBLEM), "?"));
      case SamplingEvent.NAME -> {
        if (e.startMillis() >= samplingAt) {
          samplingAt = e.startMillis();
          admissionThrottle = e.text(ADMISSION_THROTTLE);
        }
        sampledDecisions += Math.max(0, e.number(DECISIONS));
        sampledEvents += Math.max(0, e.number(ADMISSION_EVENTS));
      }
      case ConfigurationEvent.NAME -> {
        String key = Format.orElse(e.text(KEY), "?");
        Long at = configurationAt.get(key);
        if (at == null || e.startMillis() >= at) {
          configurationAt.put(key, e.startMillis());
          configuration.put(key, Format.orElse(e.text(VALUE), ""));
        }
      }
      default -> {}
    }
  }

  private void summary(RecordedFields e) {
    Site s = site(e.text(SITE));
    String tier = lower(e.text(TIER));
    if (!tier.isEmpty()) {
      s.tier = tier;
    }
    s.summaries++;
    s.admissions += pos(e.number(ADMISSIONS));
    long declines = pos(e.number(DECLINES));
    s.declines += declines;
    if (declines > 0) {
      s.declinesByTier.merge(tier, declines, Long::sum);
    }
    s.wouldDeclines += pos(e.number(WOULD_DECLINES));
    s.unpriced += pos(e.number(UNPRICED));
    s.estimated += pos(e.number(ESTIMATED));
    s.alreadyHeld += pos(e.number(ALREADY_HELD));
    s.materialized += pos(e.number(MATERIALIZED));
    s.materializedBytes += pos(e.number(MATERIALIZED_BYTES));
    s.admittedBytes += pos(e.number(ADMITTED_BYTES));
    s.declinedBytes += pos(e.number(DECLINED_BYTES));
    s.releases += pos(e.number(RELEASES));
    s.collected += pos(e.number(COLLECTED));
  }

  private void admission(RecordedFields e) {
    Site s = site(e.text(SITE));
    if (s.tier.isEmpty()) {
      s.tier = lower(e.text(TIER));
    }
    long w = Math.max(1, e.number(DECISIONS));
    String d = Format.orElse(e.text(DECISION), "");
    s.eventDecisions += d.equals("ALREADY_HELD") ? 0 : w;
    if (d.equals("DECLINE") || d.equals("WOULD_DECLINE")) {
      s.eventDeclines += w;
      long at = e.startMillis();
      long budget = e.number(BUDGET_BYTES);
      if (at > s.lastDeclineMillis || at == s.lastDeclineMillis && budget > s.lastDeclineBudget) {
        s.lastDeclineMillis = at;
        s.lastDeclineBudget = budget;
      }
    } else if (d.startsWith("ADMIT")) {
      s.eventAdmissions += w;
    }
    if (e.flag(MATERIALIZED)) {
      s.savedBytes += Math.max(0, e.number(STORAGE_BYTES) - e.number(CHARGED_BYTES)) * w;
    }
  }

  private void depth(RecordedFields e) {
    Depth d = depths.computeIfAbsent(Format.orElse(e.text(SITE), "(unnamed)"), Depth::new);
    d.device = Format.orElse(e.text(DEVICE), d.device);
    d.decisions++;
    long requested = e.number(REQUESTED_DEPTH);
    long depth = e.number(DEPTH);
    if (e.startMillis() > d.lastAt || e.startMillis() == d.lastAt && depth > d.lastDepth) {
      // readers need not give events in time order: the latest, ties broken by the value
      d.lastAt = e.startMillis();
      d.lastRequested = requested;
      d.lastDepth = depth;
    }
    if (requested >= 0 && depth >= 0 && depth < requested) {
      if (d.lowestDepth < 0
          || depth < d.lowestDepth
          || depth == d.lowestDepth && requested > d.lowestRequested) {
        d.lowestDepth = depth;
        d.lowestRequested = requested;
      }
      d.below++;
      d.belowByReason.merge(Format.orElse(e.text(REASON), "UNKNOWN"), 1L, Long::sum);
    }
  }

  private void budget(RecordedFields e) {
    Tier t = tier(lower(e.text(TIER)));
    t.budgets++;
    long budget = e.number(BUDGET_BYTES);
    Tier then = new Tier(t.name);
    then.available = e.number(AVAILABLE_BYTES);
    then.held = e.number(HELD_BYTES);
    then.maxUsage = e.fraction(MAX_USAGE);
    then.hostShare = e.fraction(HOST_SHARE);
    then.budget = budget;
    t.byTime.merge(e.startMillis(), then, (a, b) -> a.budget >= b.budget ? a : b);
    if (e.startMillis() < t.lastAt || e.startMillis() == t.lastAt && budget <= t.budget) {
      return; // readers need not give events in time order: the latest, ties by the larger
    }
    t.lastAt = e.startMillis();
    t.available = e.number(AVAILABLE_BYTES);
    t.held = e.number(HELD_BYTES);
    t.maxUsage = e.fraction(MAX_USAGE);
    t.hostShare = e.fraction(HOST_SHARE);
    t.budget = e.number(BUDGET_BYTES);
  }

  private void probe(RecordedFields e) {
    probes++;
    heapMaxBytes = Math.max(heapMaxBytes, e.number(HEAP_MAX_BYTES));
    long limit = e.number(CGROUP_LIMIT_BYTES);
    if (limit > 0 && limit != Long.MAX_VALUE) {
      cgroupLimitBytes = limit;
      cgroupPeakBytes = Math.max(cgroupPeakBytes, e.number(CGROUP_USAGE_BYTES));
    }
    if (e.text(RAM_SOURCE) != null) {
      ramSource = e.text(RAM_SOURCE);
    }
    for (String tier : List.of("heap", "direct", "native", "mapped", "device")) {
      long held = e.number(tier + PROBE_HELD_SUFFIX);
      long budget = e.number(tier + PROBE_BUDGET_SUFFIX);
      if (held > 0 && budget >= 0 && held > budget) {
        Tier t = tier(tier);
        t.probesOverBudget++;
        t.mostOverBytes = Math.max(t.mostOverBytes, held - budget);
      }
    }
  }

  private void instrumented(RecordedFields e) {
    String site = Format.orElse(e.text(SITE), "?");
    String outcome = Format.orElse(e.text(OUTCOME), "UNKNOWN").toUpperCase(Locale.ROOT);
    if (outcome.equals("WOVEN")) {
      woven.merge(site, 1L, Long::sum);
    } else {
      weaveProblems
          .computeIfAbsent(site, k -> new ArrayList<>())
          .add(
              outcome
                  + " "
                  + Format.orElse(e.text(CLASS_NAME), "?")
                  + ": "
                  + Format.orElse(e.text(MESSAGE), ""));
    }
  }

  /** Returns the cache site named {@code name}, made on first use. */
  public Site site(String name) {
    return sites.computeIfAbsent(Format.orElse(name, "(unnamed)"), Site::new);
  }

  /** Returns the tier named {@code name}, made on first use. */
  public Tier tier(String name) {
    return tiers.computeIfAbsent(name, Tier::new);
  }

  /**
   * Returns how many milliseconds of the run before the first event Flight Recorder dropped (more
   * than 5 s between the recording's start and its first event), or 0.
   */
  public long droppedMillis() {
    if (recordingStartMillis < 0 || firstEventMillis == Long.MAX_VALUE) {
      return 0;
    }
    long d = firstEventMillis - recordingStartMillis;
    return d > 5_000 ? d : 0;
  }

  private static long pos(long v) {
    return Math.max(0, v);
  }

  private static String lower(String s) {
    return s == null ? "" : s.toLowerCase(Locale.ROOT);
  }
}
