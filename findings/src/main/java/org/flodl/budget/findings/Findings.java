package org.flodl.budget.findings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The findings a recording's {@link Facts} support, one per rule, in the order the rules are listed
 * ({@link Rule}): the agent's {@code report} prints them and Mission Control's automated analysis
 * shows them (module {@code jmc-rules}), from this one computation. Each says OK where the
 * recording shows no problem of its kind, and NA where it holds nothing to judge by.
 */
public final class Findings {
  /** A decline share from which a site's declines are a warning. */
  static final double DECLINE_WARNING = 0.20;

  /** A container's peak usage, as a share of its limit, from which it is near its limit. */
  static final double CONTAINER_NEAR = 0.90;

  private Findings() {}

  /** The rules, each one finding: its id (stable, in JMC's results too) and its name. */
  public enum Rule {
    DECLINES("flodl.Declines", "Budget declines"),
    MATERIALIZED("flodl.Materialized", "Views materialized"),
    DEPTH("flodl.PrefetchDepth", "Prefetch depth"),
    WEAVING("flodl.Weaving", "Sites woven and deciding"),
    PRICING("flodl.Pricing", "Values priced"),
    MEMORY("flodl.Memory", "Budget, container and reclaims"),
    RECORDING("flodl.Recording", "The recording: exact and sampled");

    private final String id;
    private final String title;

    Rule(String id, String title) {
      this.id = id;
      this.title = title;
    }

    /** Returns the rule's id. */
    public String id() {
      return id;
    }

    /** Returns the rule's name. */
    public String title() {
      return title;
    }
  }

  /** Returns every rule's finding for {@code f}. */
  public static List<Finding> of(Facts f) {
    List<Finding> out = new ArrayList<>();
    for (Rule r : Rule.values()) {
      out.add(of(r, f));
    }
    return out;
  }

  /** Returns rule {@code r}'s finding for {@code f}. */
  public static Finding of(Rule r, Facts f) {
    if (f.flodlEvents == 0) {
      return new Finding(
          r,
          Severity.NA,
          "No flodl-budget events in this recording.",
          "The agent was not attached, or its events were not enabled in the recording's "
              + "settings.",
          "Attach the agent (-javaagent:flodl-budget-agent.jar=record=FILE) or "
              + "record with its settings (-XX:StartFlightRecording:settings=flodl-budget.jfc).");
    }
    return switch (r) {
      case DECLINES -> declines(f);
      case MATERIALIZED -> materialized(f);
      case DEPTH -> depth(f);
      case WEAVING -> weaving(f);
      case PRICING -> pricing(f);
      case MEMORY -> memory(f);
      case RECORDING -> recording(f);
    };
  }

  // ------------------------------------------------------------------------------ declines

  static Finding declines(Facts f) {
    Facts.Site worst = null;
    double worstShare = -1;
    for (Facts.Site s : f.sites.values()) {
      long n = s.decisions();
      if (n > 0) {
        double share = (double) s.declineCount() / n;
        if (share > worstShare) {
          worst = s;
          worstShare = share;
        }
      }
    }
    if (worst == null) {
      return new Finding(
          Rule.DECLINES,
          f.sites.isEmpty() ? Severity.NA : Severity.OK,
          f.sites.isEmpty() ? "No cache site decided anything." : "No site declined a value.",
          "A cache-admit site declines a value when its charge would take the tier past its "
              + "budget; the sample still reaches training, only the cache does not keep it.",
          "");
    }
    StringBuilder others = new StringBuilder();
    for (Facts.Site s : f.sites.values()) {
      if (s != worst && s.declineCount() > 0) {
        others
            .append(others.length() == 0 ? " Also: " : "; ")
            .append("'")
            .append(s.name)
            .append("' ")
            .append(Format.share(s.declineCount(), s.decisions()));
      }
    }
    long declined = worst.declineCount();
    if (declined == 0) {
      return new Finding(
          Rule.DECLINES,
          Severity.OK,
          "No site declined a value ("
              + Format.count(worst.decisions())
              + " decisions at '"
              + worst.name
              + "').",
          "Every value a cache asked to keep fitted its tier's budget.",
          "");
    }
    // The budget in force when the site last declined (the last one may be after the cache let
    // its values go, or after a prefetch ring took its share).
    Facts.Tier t = f.tiers.get(worst.tier);
    if (t != null && worst.lastDeclineMillis >= 0) {
      t = t.at(worst.lastDeclineMillis);
    }
    String bound = boundBy(f, worst.tier, t);
    boolean observe = worst.wouldDeclines >= declined;
    String summary =
        "Site '"
            + worst.name
            + "' declined "
            + Format.share(declined, worst.decisions())
            + " of its "
            + Format.count(worst.decisions())
            + " decisions ("
            + Format.count(declined)
            + (observe ? ", WOULD_DECLINE in observe mode" : "")
            + "): the "
            + worst.tier
            + " tier's budget"
            + (t == null || t.budget < 0 ? "" : " of " + Format.bytes(t.budget))
            + " was bound by "
            + bound
            + "."
            + others;
    String explanation =
        "A declined value still reaches training; the cache does not keep it, "
            + "so a later epoch reads it again from its source. The "
            + worst.tier
            + " budget is "
            + "the anchored share min(r, 0.90) x (available + held)"
            + (t == null
                ? ""
                : ": "
                    + Format.fraction(t.maxUsage)
                    + " x ("
                    + Format.bytes(t.available)
                    + " available + "
                    + Format.bytes(t.held)
                    + " held)"
                    + (Double.isNaN(t.hostShare) || t.hostShare >= 1
                        ? ""
                        : " x host share " + Format.fraction(t.hostShare)))
            + ". Declined "
            + Format.bytes(worst.declinedBytes)
            + ", admitted "
            + Format.bytes(worst.admittedBytes)
            + ".";
    String solution =
        solutionFor(worst.tier, t, f)
            + " A cache that cannot hold the epoch at any budget is doing its job by declining.";
    Severity sev = worstShare >= DECLINE_WARNING ? Severity.WARNING : Severity.INFO;
    return new Finding(Rule.DECLINES, sev, summary, explanation, solution);
  }

  /** Says what bound a tier's budget: the heap's -Xmx, the container, host RAM, the host share. */
  static String boundBy(Facts f, String tier, Facts.Tier t) {
    String share =
        t != null && !Double.isNaN(t.hostShare) && t.hostShare < 0.999
            ? " and this JVM's host share " + Format.fraction(t.hostShare)
            : "";
    String cap = t == null ? "" : " x " + usageKey(tier) + " " + Format.fraction(t.maxUsage);
    switch (tier) {
      case "heap":
        return "the heap (-Xmx " + Format.bytes(f.heapMaxBytes) + ")" + cap;
      case "device":
        return "the GPU's free memory" + cap;
      default:
        String ram =
            f.cgroupLimitBytes > 0
                ? "the container's memory limit " + Format.bytes(f.cgroupLimitBytes)
                : "host RAM" + (f.ramSource == null ? "" : " (" + f.ramSource + ")");
        return (tier.equals("direct") ? "-XX:MaxDirectMemorySize and " : "") + ram + cap + share;
    }
  }

  static String usageKey(String tier) {
    return switch (tier) {
      case "heap" -> "heap_max_usage";
      case "device" -> "vram_max_usage";
      default -> "ram_max_usage";
    };
  }

  static String solutionFor(String tier, Facts.Tier t, Facts f) {
    String knob = usageKey(tier);
    String raise =
        "Give the "
            + tier
            + " tier more: raise "
            + knob
            + " (now "
            + Format.fraction(t == null ? Double.NaN : t.maxUsage)
            + ", at most 0.9)";
    return switch (tier) {
      case "heap" -> raise + " or the heap (-Xmx), or cache the samples off-heap.";
      case "device" -> raise + ", or lower the batch size.";
      default ->
          raise
              + (f.cgroupLimitBytes > 0 ? ", or the container's memory limit" : "")
              + (t != null && !Double.isNaN(t.hostShare) && t.hostShare < 0.999
                  ? ", or give this rank a larger share (host_share=, or fewer ranks on the host)"
                  : "")
              + ".";
    };
  }

  // ------------------------------------------------------------------------------ views

  static Finding materialized(Facts f) {
    long n = 0;
    long bytes = 0;
    long saved = 0;
    List<String> where = new ArrayList<>();
    for (Facts.Site s : f.sites.values()) {
      if (s.materialized > 0) {
        n += s.materialized;
        bytes += s.materializedBytes;
        saved += s.savedBytes;
        where.add("'" + s.name + "' " + Format.count(s.materialized));
      }
    }
    if (n == 0) {
      return new Finding(
          Rule.MATERIALIZED,
          Severity.OK,
          "No view was materialized.",
          "A cached view over a storage more than twice its size would pin the whole storage; "
              + "the agent copies such a view (ADMIT_MATERIALIZED) and charges the copy. None was "
              + "seen.",
          "");
    }
    return new Finding(
        Rule.MATERIALIZED,
        Severity.INFO,
        Format.count(n)
            + " views were copied out of larger storage ("
            + Format.bytes(bytes)
            + " copied"
            + (saved > 0 ? ", about " + Format.bytes(saved) + " of pinned storage let go" : "")
            + "): "
            + String.join(", ", where)
            + ".",
        "Each was a view (a slice, a sub-array) whose backing storage was over twice its logical "
            + "size: kept as it was, the cache would have pinned all of that storage. The copy is "
            + "what is charged; the saving is estimated from the sampled per-decision events.",
        "Nothing to do; where the copies cost too much time, cache owned arrays (copy when the "
            + "sample is decoded) or slice smaller storage.");
  }

  // ------------------------------------------------------------------------------ depth

  static Finding depth(Facts f) {
    if (f.depths.isEmpty()) {
      return new Finding(
          Rule.DEPTH,
          Severity.NA,
          "No prefetch depth was decided.",
          "No prefetch-depth site (DJL's DataIterable, a sites-file depth site) ran.",
          "");
    }
    List<String> parts = new ArrayList<>();
    Severity sev = Severity.OK;
    StringBuilder solution = new StringBuilder();
    for (Facts.Depth d : f.depths.values()) {
      if (d.below == 0) {
        continue;
      }
      // Only until its first batch was priced (the first epoch's fallback), then as asked: worth
      // knowing, nothing to act on. Anything else held it below the request.
      boolean untilPriced =
          d.belowByReason.keySet().equals(java.util.Set.of("UNPRICED_BATCH"))
              && d.below < d.decisions;
      if (untilPriced) {
        sev = sev == Severity.WARNING ? sev : Severity.INFO;
      } else {
        sev = Severity.WARNING;
      }
      StringBuilder why = new StringBuilder();
      for (Map.Entry<String, Long> e : d.belowByReason.entrySet()) {
        why.append(why.length() == 0 ? "" : ", ")
            .append(reason(e.getKey()))
            .append(" x")
            .append(Format.count(e.getValue()));
        if (!untilPriced) {
          solution.append(solution.length() == 0 ? "" : " ").append(depthSolution(e.getKey()));
        }
      }
      parts.add(
          "'"
              + d.name
              + "' ("
              + d.device
              + ") got as little as "
              + d.lowestDepth
              + " where "
              + d.lowestRequested
              + " was asked, in "
              + Format.count(d.below)
              + " of "
              + Format.count(d.decisions)
              + " decisions ("
              + why
              + ")"
              + (untilPriced ? ", then what it asked once its batches were priced" : ""));
    }
    if (parts.isEmpty()) {
      long n = 0;
      for (Facts.Depth d : f.depths.values()) {
        n += d.decisions;
      }
      return new Finding(
          Rule.DEPTH,
          Severity.OK,
          "Every prefetch depth was what the application"
              + " asked ("
              + Format.count(n)
              + " decisions).",
          "In cap mode the policy only lowers a "
              + "requested depth, where the memory it needs is not there.",
          "");
    }
    return new Finding(
        Rule.DEPTH,
        sev,
        "A prefetch depth was below the request: " + String.join("; ", parts) + ".",
        "The depth is the policy's: the batches that fit the "
            + "memory left (the VRAM's free share for a GPU, the host ring's budget for a CPU), "
            + "with a floor of 2 (double buffering) where the device can take it.",
        solution.toString().trim());
  }

  /** Returns how the findings name a depth decision's reason (its event's {@code reason}). */
  public static String reason(String r) {
    return switch (r) {
      case "DOUBLE_BUFFER_FLOOR" -> "held at the double-buffer floor";
      case "CAPACITY" -> "as many batches as fit";
      case "SYNC_FALLBACK" -> "synchronous: not even two batches fit";
      case "UNPRICED_BATCH" -> "no batch priced yet";
      case "PROBE_FAILED" -> "the VRAM probe failed";
      case "NO_FIT" -> "no batch fits the host ring";
      case "UNMEASURED_FALLBACK" -> "host RAM unmeasured, the ring's fallback";
      default -> r;
    };
  }

  static String depthSolution(String r) {
    return switch (r) {
      case "DOUBLE_BUFFER_FLOOR", "CAPACITY", "SYNC_FALLBACK" ->
          "Free memory on the device "
              + "(smaller batches or model, vram_max_usage or ram_max_usage up to 0.9).";
      case "UNPRICED_BATCH" ->
          "Name the site's batch method (batch = ...) or give batch_bytes, "
              + "so the batches are priced.";
      case "PROBE_FAILED" ->
          "Check the GPU probe (vram_probe=nvml|cuda|jcuda, or fixed:USED/TOTAL"
              + " for a what-if run).";
      case "NO_FIT" ->
          "The host ring's budget is smaller than one batch: raise ram_max_usage or "
              + "lower the batch size.";
      case "UNMEASURED_FALLBACK" -> "Host RAM could not be read: check ram_probe.";
      default -> "";
    };
  }

  // ------------------------------------------------------------------------------ weaving

  static Finding weaving(Facts f) {
    List<String> problems = new ArrayList<>();
    for (Map.Entry<String, List<String>> e : f.weaveProblems.entrySet()) {
      for (String p : e.getValue()) {
        problems.add("'" + e.getKey() + "': " + p);
      }
    }
    java.util.Collections.sort(problems); // readers need not give events in time order
    List<String> idle = new ArrayList<>();
    for (String site : f.woven.keySet()) {
      Facts.Site s = f.sites.get(site);
      boolean decided =
          s != null && (s.decisions() > 0 || s.alreadyHeld > 0 || s.releases > 0)
              || f.depths.containsKey(site);
      if (!decided && !site.equals("djl") && !site.equals("dl4j")) {
        idle.add(site);
      }
    }
    if (problems.isEmpty() && idle.isEmpty()) {
      return new Finding(
          Rule.WEAVING,
          f.woven.isEmpty() ? Severity.NA : Severity.OK,
          f.woven.isEmpty()
              ? "Nothing was woven."
              : "Every woven site decided ("
                  + Format.count(f.woven.values().stream().mapToLong(Long::longValue).sum())
                  + (f.woven.values().stream().mapToLong(Long::longValue).sum() == 1
                      ? " class"
                      : " classes")
                  + " woven for "
                  + f.woven.size()
                  + (f.woven.size() == 1 ? " site)." : " sites)."),
          "A site is woven when a class it names loads; it decides when the application calls "
              + "it.",
          "");
    }
    String summary =
        (problems.isEmpty()
                ? ""
                : Format.plural(problems.size(), "weave problem")
                    + ": "
                    + String.join("; ", problems.subList(0, Math.min(3, problems.size())))
                    + (problems.size() > 3 ? "; ..." : "")
                    + ". ")
            + (idle.isEmpty() ? "" : "Woven but never deciding: " + String.join(", ", idle) + ".");
    return new Finding(
        Rule.WEAVING,
        Severity.WARNING,
        summary.trim(),
        "A site that never weaves names a class or method the application does not load or "
            + "declare; a site woven but never deciding is on code the run never called. Either "
            + "budgets nothing.",
        "Check the sites file against the classes (java -jar "
            + "flodl-budget-agent.jar suggest --check app.jar prints the sites the agent would "
            + "weave); the agent's stderr names each site that never wove.");
  }

  // ------------------------------------------------------------------------------ pricing

  static Finding pricing(Facts f) {
    long estimated = 0;
    long unpriced = 0;
    List<String> where = new ArrayList<>();
    for (Facts.Site s : f.sites.values()) {
      estimated += s.estimated;
      unpriced += s.unpriced;
      if (s.estimated > 0 || s.unpriced > 0) {
        where.add(
            "'"
                + s.name
                + "' "
                + Format.count(s.estimated)
                + " estimated, "
                + Format.count(s.unpriced)
                + " unpriced");
      }
    }
    if (estimated == 0 && unpriced == 0) {
      return new Finding(
          Rule.PRICING,
          f.sites.isEmpty() ? Severity.NA : Severity.OK,
          "Every value was priced in full.",
          "The pricer walks a value's graph up to 64 Ki "
              + "objects or 1 ms; none reached the bound or failed.",
          "");
    }
    return new Finding(
        Rule.PRICING,
        unpriced > 0 ? Severity.WARNING : Severity.INFO,
        (unpriced > 0 ? Format.count(unpriced) + " values could not be priced (declined)" : "")
            + (unpriced > 0 && estimated > 0 ? " and " : "")
            + (estimated > 0 ? Format.count(estimated) + " prices were estimated" : "")
            + ": "
            + String.join("; ", where)
            + ".",
        "An estimated price extrapolates past the walk's bound (a container's "
            + "size times the mean price of the elements walked). A value that cannot be priced (its "
            + "own code threw, it changed under the walk) is declined, never admitted unbooked.",
        unpriced > 0
            ? "The agent's stderr says why a value could not be priced, once per site; "
                + "cache a simpler value (a byte[], a buffer) or register a ValuePricer for the type."
            : "Nothing to do unless the estimates are off: values of very large graphs are better "
                + "cached as arrays.");
  }

  // ------------------------------------------------------------------------------ memory

  static Finding memory(Facts f) {
    List<String> parts = new ArrayList<>();
    Severity sev = Severity.OK;
    for (Facts.Tier t : f.tiers.values()) {
      if (t.probesOverBudget > 0) {
        // Once or twice is a probe moving while a cache fills (worth knowing); lasting, the
        // memory the budget draws on shrank under the job (worth acting on).
        boolean lasting = t.probesOverBudget >= 3 && t.probesOverBudget * 10 >= f.probes;
        sev = lasting ? Severity.WARNING : sev == Severity.WARNING ? sev : Severity.INFO;
        parts.add(
            "the "
                + t.name
                + " budget fell below what was held in "
                + Format.plural(t.probesOverBudget, "probe reading")
                + " (by up to "
                + Format.bytes(t.mostOverBytes)
                + "): admissions stopped, nothing was evicted");
      }
    }
    if (!f.reclaims.isEmpty()) {
      sev = Severity.WARNING;
      parts.add(
          Format.plural(f.reclaims.size(), "container reclaim")
              + ", the last "
              + f.reclaims.lastEntry().getValue());
    }
    if (f.cgroupLimitBytes > 0 && f.cgroupPeakBytes >= CONTAINER_NEAR * f.cgroupLimitBytes) {
      sev = Severity.WARNING;
      parts.add(
          "the container reached "
              + Format.share(f.cgroupPeakBytes, f.cgroupLimitBytes)
              + " of its "
              + Format.bytes(f.cgroupLimitBytes)
              + " limit");
    }
    if (parts.isEmpty()) {
      return new Finding(
          Rule.MEMORY,
          f.probes == 0 ? Severity.NA : Severity.OK,
          f.probes == 0
              ? "No memory probe readings."
              : "The budgets held what was admitted"
                  + (f.cgroupLimitBytes > 0
                      ? ", and the container stayed under "
                          + Format.share(f.cgroupPeakBytes, f.cgroupLimitBytes)
                          + " of its limit"
                      : "")
                  + " ("
                  + Format.plural(f.probes, "probe reading")
                  + ").",
          "A budget follows the memory the probes read each second; it can shrink below what is "
              + "held (stopping admissions), and near a container's limit the agent reclaims.",
          "");
    }
    return new Finding(
        Rule.MEMORY,
        sev,
        String.join("; ", parts) + ".",
        "A budget below what is held means the memory the probe reads shrank (another consumer "
            + "grew); the agent stops admitting until releases bring the tier back. Reclaims are "
            + "the container guard's collections and malloc_trim calls near the limit, each with "
            + "the usage before and after.",
        "Leave the job more headroom: lower ram_max_usage or heap_max_usage, raise the "
            + "container's memory limit, or cap -XX:MaxDirectMemorySize below it.");
  }

  // ------------------------------------------------------------------------------ recording

  static Finding recording(Facts f) {
    List<String> parts = new ArrayList<>();
    Severity sev = Severity.OK;
    if (!f.recordingProblems.isEmpty()) {
      sev = Severity.WARNING;
      parts.add(
          Format.plural(f.recordingProblems.size(), "recording problem")
              + ": "
              + f.recordingProblems.get(0));
    }
    long dropped = f.droppedMillis();
    if (dropped > 0) {
      sev = sev == Severity.WARNING ? sev : Severity.INFO;
      parts.add(
          "the first "
              + Format.count(dropped / 1000)
              + " s of the recording were dropped"
              + (f.maxSizeBytes > 0
                  ? " (past its maxsize " + Format.bytes(f.maxSizeBytes) + ")"
                  : "")
              + ": the counts are of what it holds");
    }
    if (f.sampledDecisions > f.sampledEvents && f.sampledEvents > 0) {
      sev = sev == Severity.WARNING ? sev : Severity.INFO;
      parts.add(
          "the per-decision events are a sample: "
              + Format.count(f.sampledEvents)
              + " stand for "
              + Format.count(f.sampledDecisions)
              + " decisions (throttle "
              + Format.orElse(f.admissionThrottle, "?")
              + " per site and kind); the site summaries' "
              + "counts are exact");
    }
    if (parts.isEmpty()) {
      return new Finding(
          Rule.RECORDING,
          Severity.OK,
          "The recording holds every decision as its" + " own event, from the start.",
          "Counts come from the site summaries either way.",
          "");
    }
    return new Finding(
        Rule.RECORDING,
        sev,
        capitalize(String.join("; ", parts)) + ".",
        "flodl.budget.SiteSummary counts every decision exactly, per site and second; "
            + "CacheAdmission and Release events are sampled to their throttle, each saying in "
            + "'decisions' how many it stands for. Flight Recorder drops the oldest chunks past the "
            + "recording's maxsize or maxage.",
        "For every decision as its own event, record "
            + "with throttle=off (short runs); for more history, raise record_maxsize or "
            + "record_maxage. A recording problem names the file and the failure.");
  }

  private static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
