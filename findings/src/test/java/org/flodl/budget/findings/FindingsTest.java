package org.flodl.budget.findings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The findings from facts a reader gathered, here from events written by hand: each rule's
 * severity and numbers, and the same findings whatever order a reader gives the events in.
 */
class FindingsTest {
  /** An event as a map of fields. */
  record Ev(String type, long at, Map<String, Object> f) implements RecordedFields {
    @Override
    public long startMillis() {
      return at;
    }

    @Override
    public long number(String field) {
      return f.get(field) instanceof Number n ? n.longValue() : -1;
    }

    @Override
    public double fraction(String field) {
      return f.get(field) instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    @Override
    public String text(String field) {
      Object v = f.get(field);
      return v == null ? null : v.toString();
    }

    @Override
    public boolean flag(String field) {
      return Boolean.TRUE.equals(f.get(field));
    }
  }

  static Ev ev(String type, long at, Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return new Ev(type, at, m);
  }

  static List<Ev> heapDeclines() {
    List<Ev> e = new ArrayList<>();
    e.add(ev("flodl.agent.Instrumented", 1, "site", "samples", "outcome", "WOVEN", "className",
        "com.acme.SampleCache"));
    e.add(ev("flodl.budget.RamBudget", 2, "tier", "heap", "availableBytes", 100L << 20,
        "heldBytes", 0L, "maxUsage", 0.5, "hostShare", 1.0, "budgetBytes", 50L << 20));
    e.add(ev("flodl.budget.RamBudget", 9, "tier", "heap", "availableBytes", 80L << 20,
        "heldBytes", 64L << 20, "maxUsage", 0.5, "hostShare", 1.0, "budgetBytes", 72L << 20));
    e.add(ev("flodl.budget.MemoryProbe", 3, "heapMaxBytes", 256L << 20, "heapHeldBytes",
        10L, "heapBudgetBytes", 100L));
    for (int i = 0; i < 4; i++) {
      e.add(ev("flodl.budget.SiteSummary", 4 + i, "site", "samples", "tier", "heap",
          "admissions", 60L, "declines", 40L, "admittedBytes", 60L << 20, "declinedBytes",
          40L << 20, "releases", 10L));
    }
    e.add(ev("flodl.budget.CacheAdmission", 5, "site", "samples", "tier", "heap", "decision",
        "DECLINE", "decisions", 40L, "chargedBytes", 1L << 20));
    e.add(ev("flodl.agent.Sampling", 10, "admissionThrottle", "50/s", "decisions", 400L,
        "admissionEvents", 12L));
    return e;
  }

  static Facts facts(List<Ev> events) {
    Facts f = new Facts();
    for (Ev e : events) {
      f.accept(e);
    }
    return f;
  }

  @Test
  void aSiteDecliningFortyPercentIsAWarningThatNamesItsTierAndWhatBoundIt() {
    Finding d = Findings.of(Findings.Rule.DECLINES, facts(heapDeclines()));
    assertEquals(Severity.WARNING, d.severity());
    // the budget in force at the last recorded decline (t=5): the one computed at t=2
    assertEquals("Site 'samples' declined 40 % of its 400 decisions (160): the heap tier's budget"
        + " of 50.0 MiB was bound by the heap (-Xmx 256 MiB) x heap_max_usage 0.5.",
        d.summary());
    assertTrue(d.solution().contains("raise heap_max_usage (now 0.5"), d.solution());
    assertTrue(d.explanation().contains("0.5 x (100 MiB available + 0 B held)"),
        d.explanation());
  }

  @Test
  void theSameFindingsWhateverTheOrderOfTheEvents() {
    List<Ev> events = heapDeclines();
    List<Finding> inOrder = Findings.of(facts(events));
    Collections.reverse(events);
    assertEquals(inOrder, Findings.of(facts(events)));
    Collections.shuffle(events, new java.util.Random(7));
    assertEquals(inOrder, Findings.of(facts(events)));
  }

  @Test
  void theSampleIsSaidAndTheCountsAreTheSummaries() {
    Finding r = Findings.of(Findings.Rule.RECORDING, facts(heapDeclines()));
    assertEquals(Severity.INFO, r.severity());
    assertTrue(r.summary().contains("12 stand for 400 decisions (throttle 50/s"), r.summary());
  }

  @Test
  void aDepthBelowTheRequestSaysWhy() {
    Facts f = facts(List.of(
        ev("flodl.budget.PrefetchDepth", 1, "site", "feed", "device", "cuda:0",
            "requestedDepth", 8L, "depth", 2L, "reason", "DOUBLE_BUFFER_FLOOR"),
        ev("flodl.budget.PrefetchDepth", 2, "site", "feed", "device", "cuda:0",
            "requestedDepth", 8L, "depth", 8L, "reason", "REQUESTED")));
    Finding d = Findings.of(Findings.Rule.DEPTH, f);
    assertEquals(Severity.WARNING, d.severity());
    assertTrue(d.summary().contains("held at the double-buffer floor x1"), d.summary());
    assertTrue(d.summary().contains("1 of 2 decisions"), d.summary());
  }

  @Test
  void aRunWithNothingToJudgeIsOkOrNotApplicableNeverAWarning() {
    Facts f = facts(List.of(ev("flodl.agent.Configuration", 1, "key", "mode", "value",
        "enforce"), ev("flodl.budget.MemoryProbe", 2, "heapMaxBytes", 1L << 30)));
    for (Finding x : Findings.of(f)) {
      assertTrue(x.severity() == Severity.OK || x.severity() == Severity.NA, x.toString());
    }
    for (Finding x : Findings.of(new Facts())) {
      assertEquals(Severity.NA, x.severity(), x.toString());
    }
  }

  @Test
  void aBudgetBelowWhatIsHeldOnceIsWorthKnowingAndLastingIsAWarning() {
    Facts once = facts(List.of(
        ev("flodl.budget.MemoryProbe", 1, "heapHeldBytes", 200L, "heapBudgetBytes", 100L),
        ev("flodl.budget.MemoryProbe", 2, "heapHeldBytes", 50L, "heapBudgetBytes", 100L)));
    assertEquals(Severity.INFO, Findings.of(Findings.Rule.MEMORY, once).severity());
    List<Ev> lasting = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lasting.add(ev("flodl.budget.MemoryProbe", i, "heapHeldBytes", 200L, "heapBudgetBytes",
          100L));
    }
    assertEquals(Severity.WARNING, Findings.of(Findings.Rule.MEMORY, facts(lasting)).severity());
  }

  @Test
  void aBudgetBelowWhatIsHeldAndAReclaimAreWarnings() {
    Facts f = facts(List.of(
        ev("flodl.budget.MemoryProbe", 1, "heapHeldBytes", 200L, "heapBudgetBytes", 100L),
        ev("flodl.budget.Reclaim", 2, "action", "GC", "reason", "HIGH_WATER",
            "usageBeforeBytes", 900L << 20, "usageAfterBytes", 700L << 20, "limitBytes",
            1L << 30)));
    Finding m = Findings.of(Findings.Rule.MEMORY, f);
    assertEquals(Severity.WARNING, m.severity());
    assertTrue(m.summary().contains(
        "the heap budget fell below what was held in 1 probe reading "), m.summary());
    assertTrue(m.summary().contains("1 container reclaim, the last gc (HIGH_WATER): usage "
        + "900 MiB -> 700 MiB of 1.00 GiB"), m.summary());
  }
}
