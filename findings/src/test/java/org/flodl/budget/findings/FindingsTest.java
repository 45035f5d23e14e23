package org.flodl.budget.findings;

import static org.flodl.budget.events.EventFields.ACTION;
import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMISSION_EVENTS;
import static org.flodl.budget.events.EventFields.ADMISSION_THROTTLE;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECISIONS;
import static org.flodl.budget.events.EventFields.DECLINED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.HEAP_BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_HELD_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_MAX_BYTES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.LIMIT_BYTES;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.USAGE_AFTER_BYTES;
import static org.flodl.budget.events.EventFields.USAGE_BEFORE_BYTES;
import static org.flodl.budget.events.EventFields.VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.ReclaimEvent;
import org.flodl.budget.events.SamplingEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Test;

/**
 * The findings from facts a reader gathered, here from events written by hand: each rule's severity
 * and numbers, and the same findings whatever order a reader gives the events in.
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
    e.add(
        ev(
            InstrumentedEvent.NAME,
            1,
            SITE,
            "samples",
            OUTCOME,
            "WOVEN",
            CLASS_NAME,
            "com.acme.SampleCache"));
    e.add(
        ev(
            RamBudgetEvent.NAME,
            2,
            TIER,
            "heap",
            AVAILABLE_BYTES,
            100L << 20,
            HELD_BYTES,
            0L,
            MAX_USAGE,
            0.5,
            HOST_SHARE,
            1.0,
            BUDGET_BYTES,
            50L << 20));
    e.add(
        ev(
            RamBudgetEvent.NAME,
            9,
            TIER,
            "heap",
            AVAILABLE_BYTES,
            80L << 20,
            HELD_BYTES,
            64L << 20,
            MAX_USAGE,
            0.5,
            HOST_SHARE,
            1.0,
            BUDGET_BYTES,
            72L << 20));
    e.add(
        ev(
            MemoryProbeEvent.NAME,
            3,
            HEAP_MAX_BYTES,
            256L << 20,
            HEAP_HELD_BYTES,
            10L,
            HEAP_BUDGET_BYTES,
            100L));
    for (int i = 0; i < 4; i++) {
      e.add(
          ev(
              SiteSummaryEvent.NAME,
              4 + i,
              SITE,
              "samples",
              TIER,
              "heap",
              ADMISSIONS,
              60L,
              DECLINES,
              40L,
              ADMITTED_BYTES,
              60L << 20,
              DECLINED_BYTES,
              40L << 20,
              RELEASES,
              10L));
    }
    e.add(
        ev(
            CacheAdmissionEvent.NAME,
            5,
            SITE,
            "samples",
            TIER,
            "heap",
            DECISION,
            "DECLINE",
            DECISIONS,
            40L,
            CHARGED_BYTES,
            1L << 20));
    e.add(
        ev(
            SamplingEvent.NAME,
            10,
            ADMISSION_THROTTLE,
            "50/s",
            DECISIONS,
            400L,
            ADMISSION_EVENTS,
            12L));
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
    assertEquals(
        "Site 'samples' declined 40 % of its 400 decisions (160): the heap tier's budget"
            + " of 50.0 MiB was bound by the heap (-Xmx 256 MiB) x heap_max_usage 0.5.",
        d.summary());
    assertTrue(d.solution().contains("raise heap_max_usage (now 0.5"), d.solution());
    assertTrue(d.explanation().contains("0.5 x (100 MiB available + 0 B held)"), d.explanation());
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
    Facts f =
        facts(
            List.of(
                ev(
                    PrefetchDepthEvent.NAME,
                    1,
                    SITE,
                    "feed",
                    DEVICE,
                    "cuda:0",
                    REQUESTED_DEPTH,
                    8L,
                    DEPTH,
                    2L,
                    REASON,
                    "DOUBLE_BUFFER_FLOOR"),
                ev(
                    PrefetchDepthEvent.NAME,
                    2,
                    SITE,
                    "feed",
                    DEVICE,
                    "cuda:0",
                    REQUESTED_DEPTH,
                    8L,
                    DEPTH,
                    8L,
                    REASON,
                    "REQUESTED")));
    Finding d = Findings.of(Findings.Rule.DEPTH, f);
    assertEquals(Severity.WARNING, d.severity());
    assertTrue(d.summary().contains("held at the double-buffer floor x1"), d.summary());
    assertTrue(d.summary().contains("1 of 2 decisions"), d.summary());
  }

  @Test
  void aRunWithNothingToJudgeIsOkOrNotApplicableNeverAWarning() {
    Facts f =
        facts(
            List.of(
                ev(ConfigurationEvent.NAME, 1, KEY, "mode", VALUE, "enforce"),
                ev(MemoryProbeEvent.NAME, 2, HEAP_MAX_BYTES, 1L << 30)));
    for (Finding x : Findings.of(f)) {
      assertTrue(x.severity() == Severity.OK || x.severity() == Severity.NA, x.toString());
    }
    for (Finding x : Findings.of(new Facts())) {
      assertEquals(Severity.NA, x.severity(), x.toString());
    }
  }

  @Test
  void aBudgetBelowWhatIsHeldOnceIsWorthKnowingAndLastingIsAWarning() {
    Facts once =
        facts(
            List.of(
                ev(MemoryProbeEvent.NAME, 1, HEAP_HELD_BYTES, 200L, HEAP_BUDGET_BYTES, 100L),
                ev(MemoryProbeEvent.NAME, 2, HEAP_HELD_BYTES, 50L, HEAP_BUDGET_BYTES, 100L)));
    assertEquals(Severity.INFO, Findings.of(Findings.Rule.MEMORY, once).severity());
    List<Ev> lasting = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lasting.add(ev(MemoryProbeEvent.NAME, i, HEAP_HELD_BYTES, 200L, HEAP_BUDGET_BYTES, 100L));
    }
    assertEquals(Severity.WARNING, Findings.of(Findings.Rule.MEMORY, facts(lasting)).severity());
  }

  @Test
  void aBudgetBelowWhatIsHeldAndAReclaimAreWarnings() {
    Facts f =
        facts(
            List.of(
                ev(MemoryProbeEvent.NAME, 1, HEAP_HELD_BYTES, 200L, HEAP_BUDGET_BYTES, 100L),
                ev(
                    ReclaimEvent.NAME,
                    2,
                    ACTION,
                    "GC",
                    REASON,
                    "HIGH_WATER",
                    USAGE_BEFORE_BYTES,
                    900L << 20,
                    USAGE_AFTER_BYTES,
                    700L << 20,
                    LIMIT_BYTES,
                    1L << 30)));
    Finding m = Findings.of(Findings.Rule.MEMORY, f);
    assertEquals(Severity.WARNING, m.severity());
    assertTrue(
        m.summary().contains("the heap budget fell below what was held in 1 probe reading "),
        m.summary());
    assertTrue(
        m.summary()
            .contains(
                "1 container reclaim, the last gc (HIGH_WATER): usage "
                    + "900 MiB -> 700 MiB of 1.00 GiB"),
        m.summary());
  }
}
