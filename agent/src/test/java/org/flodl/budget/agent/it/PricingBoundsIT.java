package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.ESTIMATED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Test;

/**
 * Hostile and unusual values through a woven cache-admit site, at -Xmx300m with
 * -XX:+ExitOnOutOfMemoryError: nothing runs out of memory, values whose size is knowable are
 * charged within 10 % of it, {@code estimated} is set where the pricer's walk reached its bound (64
 * Ki visits or 1 ms: a value far larger than the bound is never walked whole) and not for a leaf
 * priced in one step (a 100 MB string), the site's ledger counts the same estimated prices as the
 * decisions' events, and what cannot be priced is declined, never admitted unbooked. Each put's
 * time with and without the agent is measured and printed, not asserted: one wall-clock reading
 * also measures a GC pause or a busy machine, so the bound is asserted on the pricer's work
 * instead.
 */
class PricingBoundsIT {
  private static final long MIB = 1 << 20;

  private static Map<String, Long> times(ChildJvm.Result r) {
    Map<String, Long> t = new HashMap<>();
    for (String line : r.stdout.split("\n")) {
      if (line.startsWith("PUT ")) {
        String[] p = line.split(" ");
        t.put(p[1], Long.parseLong(p[2].substring("ns=".length())));
      }
    }
    return t;
  }

  @Test
  void hostileValuesArePricedWithinTheBoundOrDeclined() throws Exception {
    ChildJvm.Result bare =
        ChildJvm.on("hostile-bare", Jdk.JDK17)
            .jvm("-Xmx300m")
            .timeout(180)
            .run("com.acme.it.HostileValues");
    assertEquals(0, bare.exitCode, bare.toString());
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("hostile", Jdk.JDK17)
            .jvm("-Xmx300m", "-XX:+ExitOnOutOfMemoryError")
            .agent("sites=" + sites)
            .record()
            .timeout(180)
            .run("com.acme.it.HostileValues");
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
    assertFalse(r.stderr.contains("OutOfMemoryError"), r.toString());

    Map<String, Long> without = times(bare);
    Map<String, Long> with = times(r);
    assertEquals(without.keySet(), with.keySet());
    for (String name : with.keySet()) {
      long extra = with.get(name) - without.get(name);
      // Printed for whoever reads the log; not asserted (see the class comment).
      System.out.printf(
          "PRICING %-20s without %8.3f ms, with %8.3f ms, +%.3f ms%n",
          name, without.get(name) / 1e6, with.get(name) / 1e6, extra / 1e6);
    }

    Map<String, RecordedEvent> decided = new HashMap<>();
    List<RecordedEvent> events = r.events(CacheAdmissionEvent.NAME);
    List<String> order =
        List.of(
            "endless",
            "ncopies-max",
            "ncopies-1e9-of-1MiB",
            "abstract-list-1e9",
            "objects-10M",
            "nulls-10M",
            "list-of-nulls-10M",
            "string-100MB",
            "ring-1M",
            "nested-lists-100k",
            "samples-10k",
            "mutated");
    assertEquals(order.size() + 1, events.size(), "one decision a put, the warm-up's first");
    for (int i = 0; i < order.size(); i++) {
      decided.put(order.get(i), events.get(i + 1));
    }
    for (String unpriceable : List.of("endless", "ring-1M", "nested-lists-100k")) {
      RecordedEvent e = decided.get(unpriceable);
      assertEquals(Decision.DECLINE.name(), e.getString(DECISION), e.toString());
      assertEquals(0, e.getLong(CHARGED_BYTES), e.toString());
      assertTrue(
          r.stdout.contains("PUT " + unpriceable + " ")
              && r.stdout.contains(
                  "PUT " + unpriceable + " ns=" + with.get(unpriceable) + " cached=false"),
          r.stdout);
    }
    assertTrue(r.stderr.contains("could not be priced"), r.stderr);
    for (String bounded :
        List.of(
            "ncopies-max",
            "ncopies-1e9-of-1MiB",
            "abstract-list-1e9",
            "objects-10M",
            "nulls-10M",
            "list-of-nulls-10M")) {
      assertTrue(decided.get(bounded).getBoolean(ESTIMATED), bounded + ": " + decided.get(bounded));
    }
    // A string is a leaf: priced from its array's length in one step, never walked, so neither
    // bound can cut it and its price is exact, however large it is and whatever the machine.
    assertFalse(
        decided.get("string-100MB").getBoolean(ESTIMATED),
        "string-100MB: " + decided.get("string-100MB"));
    // The site's own ledger counts each estimated price once: the same as the decisions' events.
    long estimatedDecisions =
        events.stream()
            .filter(e -> e.getBoolean(ESTIMATED))
            .mapToLong(e -> e.getLong(DECISIONS))
            .sum();
    long summarizedEstimated =
        r.events(SiteSummaryEvent.NAME).stream().mapToLong(e -> e.getLong(ESTIMATED)).sum();
    assertTrue(estimatedDecisions >= 6, "the six bounded values at least: " + events);
    assertEquals(
        estimatedDecisions,
        summarizedEstimated,
        "the site summaries' estimated prices against the decisions': " + events);
    // Knowable sizes, with compressed references at -Xmx300m: 4 bytes a slot, 16-byte headers,
    // heap arrays of half a G1 region or more rounded to whole 1 MiB regions.
    within(decided.get("nulls-10M"), 16 + 40_000_000L);
    within(decided.get("list-of-nulls-10M"), 24 + 16 + 40_000_000L);
    within(decided.get("string-100MB"), 24 + 16 + 100 * MIB);
    within(decided.get("samples-10k"), 24 + 16 + 40_000 + 10_000L * (16 + 1024));
    within(decided.get("objects-10M"), 16 + 40_000_000L + 10_000_000L * 16);
    RecordedEvent mutated = decided.get("mutated");
    assertTrue(
        mutated.getString(DECISION).equals(Decision.DECLINE.name())
            || mutated.getLong(CHARGED_BYTES) > 100_000L * 16,
        "declined, or priced: " + mutated);
  }

  private static void within(RecordedEvent e, long real) {
    long charged = e.getLong(CHARGED_BYTES);
    assertTrue(
        Math.abs(charged - real) <= real / 10,
        "charged " + charged + " for a real " + real + ": " + e);
  }
}
