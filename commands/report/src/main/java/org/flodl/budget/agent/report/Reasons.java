package org.flodl.budget.agent.report;

import java.util.Map;

/** What each recorded reason means, in a few words a person reads beside the number. */
final class Reasons {
  private static final Map<String, String> DEPTH =
      Map.of(
          "CAPACITY", "the VRAM budget divided by the batch size",
          "DOUBLE_BUFFER_FLOOR",
              "no batch fits the budget, but two are negligible against free VRAM",
          "SYNC_FALLBACK", "no batch fits the budget and two are not negligible: synchronous",
          "CPU_OVERLAP", "not a GPU: the double buffer, for overlap",
          "UNPRICED_BATCH", "no batch priced yet: the seed's default, claiming nothing",
          "PROBE_FAILED", "the VRAM probe failed: the floor is declined",
          "REQUESTED", "prefetch=cap kept the request, below the policy's depth");

  private static final Map<String, String> RING =
      Map.of(
          "DISABLED", "ram_max_usage <= 0: no reader stage",
          "UNMEASURED_FALLBACK", "host RAM could not be measured: the fallback of 4",
          "UNPRICED_BATCH", "no batch priced yet: the fallback of 4",
          "CAPACITY", "the ring's budget (host RAM, or the heap) divided by the batch size",
          "NO_FIT", "no batch fits the ring's budget: synchronous, single-stage",
          "EPOCH_CAP", "capped at the epoch's batch count",
          "CACHE_CAP", "capped at 8: a sample cache shares the budget",
          "REQUESTED", "prefetch=cap kept the request, below the ring's slots");

  private Reasons() {}

  /**
   * Returns what a prefetch-depth reason means for a site on {@code device} ({@code cuda:N} is
   * priced against VRAM, anything else is a host ring, whose reasons are the ring's), or an empty
   * string for a reason this report does not know.
   */
  static String depth(String reason, String device) {
    boolean gpu = device != null && device.startsWith("cuda");
    return (gpu ? DEPTH : RING).getOrDefault(reason, "");
  }

  /**
   * Returns what a ring-slots reason means, or an empty string for one this report does not know.
   */
  static String ring(String reason) {
    return RING.getOrDefault(reason, "");
  }
}
