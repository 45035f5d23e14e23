package org.flodl.budget.events;

import static org.flodl.budget.events.EventFields.ACTIVATION_RESERVE;
import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.BYTES;
import static org.flodl.budget.events.EventFields.CACHE_ACTIVE;
import static org.flodl.budget.events.EventFields.CAUSE;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_LOADER;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.DEVICE;
import static org.flodl.budget.events.EventFields.DIRECT_AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.DIRECT_HELD_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.HEAP_HELD_BYTES;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.HOST_AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.PINNED_BYTES;
import static org.flodl.budget.events.EventFields.RAM_MAX_USAGE;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.SLOTS;
import static org.flodl.budget.events.EventFields.SOURCE;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.flodl.budget.events.EventFields.STREAM_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.USED_BYTES;
import static org.flodl.budget.events.EventFields.VALUE_TYPE;
import static org.flodl.budget.events.EventFields.VRAM_TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.VRAM_USED_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.DataAmount;
import jdk.jfr.EventType;
import jdk.jfr.Percentage;
import jdk.jfr.Recording;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads the recorded decisions back with {@code jdk.jfr.consumer}: every flodl event type with its
 * label, category and described fields, bytes and fractions carrying their units, the field values
 * the policy and the ledger decided, and the hot-path events without stack traces.
 */
class RecordedEventsTest {
  static final Map<String, List<String>> CATEGORIES =
      Map.of(
          CacheAdmissionEvent.NAME, List.of("flodl", "Budget"),
          PrefetchDepthEvent.NAME, List.of("flodl", "Budget"),
          RingSlotsEvent.NAME, List.of("flodl", "Budget"),
          RamBudgetEvent.NAME, List.of("flodl", "Budget"),
          StagerSplitEvent.NAME, List.of("flodl", "Budget"),
          ReleaseEvent.NAME, List.of("flodl", "Budget"),
          MemoryProbeEvent.NAME, List.of("flodl", "Budget"),
          SiteSummaryEvent.NAME, List.of("flodl", "Budget"),
          InstrumentedEvent.NAME, List.of("flodl", "Agent"),
          ConfigurationEvent.NAME, List.of("flodl", "Agent"));

  static final Map<String, String> LABELS =
      Map.of(
          CacheAdmissionEvent.NAME, "Cache Admission",
          PrefetchDepthEvent.NAME, "Prefetch Depth",
          RingSlotsEvent.NAME, "Ring Slots",
          RamBudgetEvent.NAME, "RAM Budget",
          StagerSplitEvent.NAME, "Stager Split",
          ReleaseEvent.NAME, "Release",
          MemoryProbeEvent.NAME, "Memory Probe",
          SiteSummaryEvent.NAME, "Site Summary",
          InstrumentedEvent.NAME, "Instrumented",
          ConfigurationEvent.NAME, "Agent Configuration");

  static final Set<String> FRACTIONS = Set.of(MAX_USAGE, HOST_SHARE, RAM_MAX_USAGE);
  static final Set<String> IMPLICIT = Set.of("startTime", "duration", "eventThread", "stackTrace");

  static DecisionScenario scenario;
  static List<RecordedEvent> events;

  @BeforeAll
  static void record() throws Exception {
    scenario = DecisionScenario.shared();
    events = RecordingFile.readAllEvents(DecisionScenario.sharedFile());
  }

  static List<RecordedEvent> named(String name) {
    return events.stream()
        .filter(e -> e.getEventType().getName().equals(name))
        .collect(Collectors.toList());
  }

  @Test
  void everyFlodlTypeIsRecordedWithItsLabelCategoryAndDescribedFields() {
    for (String name : CATEGORIES.keySet()) {
      List<RecordedEvent> recorded = named(name);
      assertFalse(recorded.isEmpty(), "no " + name + " in the recording");
      EventType type = recorded.get(0).getEventType();
      assertEquals(LABELS.get(name), type.getLabel(), name);
      assertEquals(CATEGORIES.get(name), type.getCategoryNames(), name);
      assertNotNull(type.getDescription(), name);
      for (ValueDescriptor field : type.getFields()) {
        if (IMPLICIT.contains(field.getName())) {
          continue;
        }
        String where = name + "." + field.getName();
        assertNotNull(field.getLabel(), where);
        assertTrue(
            Character.isUpperCase(field.getLabel().charAt(0)),
            where + " label " + field.getLabel());
        assertFalse(field.getLabel().endsWith("."), where);
        assertNotNull(field.getDescription(), where);
        boolean bytes =
            field.getName().endsWith("Bytes")
                || field.getName().equals(BYTES)
                || field.getName().equals(ACTIVATION_RESERVE);
        if (bytes) {
          DataAmount amount = field.getAnnotation(DataAmount.class);
          assertNotNull(amount, where + " is bytes without @DataAmount");
          assertEquals(DataAmount.BYTES, amount.value(), where);
          assertEquals("jdk.jfr.DataAmount", field.getContentType(), where);
        } else if (FRACTIONS.contains(field.getName())) {
          assertNotNull(
              field.getAnnotation(Percentage.class), where + " is a fraction without @Percentage");
          assertEquals("jdk.jfr.Percentage", field.getContentType(), where);
        } else {
          assertNull(field.getContentType(), where + " has a unit it should not have");
        }
      }
    }
  }

  @Test
  void cacheAdmissionsCarryTheLedgersDecisionsInOrder() {
    List<RecordedEvent> admissions = named(CacheAdmissionEvent.NAME);
    assertEquals(
        scenario.decisions,
        admissions.stream().map(e -> e.getString(DECISION)).collect(Collectors.toList()));
    assertEquals(
        List.of("ADMIT", "ADMIT", "ADMIT_MATERIALIZED", "ADMIT", "ADMIT", "DECLINE"),
        scenario.decisions);
    long budget = scenario.budget.budgetBytes();
    assertEquals(500_000, budget);
    for (int i = 0; i < admissions.size(); i++) {
      RecordedEvent e = admissions.get(i);
      assertEquals("samples", e.getString(SITE));
      assertEquals("heap", e.getString(TIER));
      assertEquals(scenario.heldAfter.get(i), e.getLong(HELD_BYTES));
      assertEquals(budget, e.getLong(BUDGET_BYTES));
      assertEquals(DecisionScenario.AVAILABLE, e.getLong(AVAILABLE_BYTES));
      if (!e.getString(DECISION).equals("DECLINE")) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES));
      }
      assertNull(e.getStackTrace(), "CacheAdmission is a hot-path event: no stack trace");
    }
    RecordedEvent view = admissions.get(2);
    assertEquals("java.nio.HeapByteBuffer", view.getString(VALUE_TYPE));
    assertEquals(DecisionScenario.VIEW_LOGICAL, view.getLong(LOGICAL_BYTES));
    assertEquals(DecisionScenario.VIEW_STORAGE, view.getLong(STORAGE_BYTES));
    assertEquals(DecisionScenario.VIEW_LOGICAL, view.getLong(CHARGED_BYTES));
    assertTrue(view.getBoolean(MATERIALIZED));
    RecordedEvent declined = admissions.get(5);
    assertEquals(410_000, declined.getLong(HELD_BYTES));
    assertEquals(DecisionScenario.VALUE, declined.getLong(CHARGED_BYTES));
    assertFalse(declined.getBoolean(MATERIALIZED));
  }

  @Test
  void releaseBudgetAndSplitCarryThePolicysNumbers() {
    RecordedEvent release = named(ReleaseEvent.NAME).get(0);
    assertEquals(DecisionScenario.VALUE, release.getLong(BYTES));
    assertEquals(310_000, release.getLong(HELD_BYTES));
    assertEquals("RELEASE_SITE", release.getString(CAUSE));
    assertNull(release.getStackTrace());

    RecordedEvent budget = named(RamBudgetEvent.NAME).get(0);
    assertEquals("heap", budget.getString(TIER));
    assertEquals(0.5, budget.getDouble(MAX_USAGE));
    assertEquals(1.0, budget.getDouble(HOST_SHARE));
    assertEquals(500_000, budget.getLong(BUDGET_BYTES));

    RecordedEvent split = named(StagerSplitEvent.NAME).get(0);
    assertEquals(1003, split.getLong(TOTAL_BYTES));
    assertEquals(753, split.getLong(PINNED_BYTES));
    assertEquals(250, split.getLong(STREAM_BYTES));
  }

  @Test
  void prefetchAndRingRecordDepthSlotsAndReasonByName() {
    RecordedEvent depth = named(PrefetchDepthEvent.NAME).get(0);
    assertEquals("djl", depth.getString(SITE));
    assertEquals("cuda:0", depth.getString(DEVICE));
    assertEquals(5592L << 20, depth.getLong(USED_BYTES));
    assertEquals(6360465408L, depth.getLong(TOTAL_BYTES));
    assertEquals(32L << 20, depth.getLong(BATCH_BYTES));
    assertEquals(4, depth.getLong(REQUESTED_DEPTH));
    assertEquals(0, depth.getLong(DEPTH));
    assertEquals("SYNC_FALLBACK", depth.getString(REASON));
    assertNotNull(depth.getStackTrace(), "PrefetchDepth keeps its stack trace: which loader asked");

    RecordedEvent ring = named(RingSlotsEvent.NAME).get(0);
    assertEquals(8, ring.getLong(SLOTS));
    assertEquals("CACHE_CAP", ring.getString(REASON));
    assertTrue(ring.getBoolean(CACHE_ACTIVE));
  }

  @Test
  void periodicEventsCarryWhatTheirFillersSet() {
    RecordedEvent probe = named(MemoryProbeEvent.NAME).get(0);
    assertEquals(DecisionScenario.AVAILABLE, probe.getLong(HOST_AVAILABLE_BYTES));
    assertEquals(DecisionScenario.AVAILABLE, probe.getLong(HEAP_AVAILABLE_BYTES));
    assertEquals(310_000, probe.getLong(HEAP_HELD_BYTES));
    assertEquals(500_000, probe.getLong(HEAP_BUDGET_BYTES));
    assertEquals(-1, probe.getLong(DIRECT_HELD_BYTES), "a tier the filler left unset reads -1");
    assertEquals(-1, probe.getLong(DIRECT_AVAILABLE_BYTES));
    assertEquals(5592L << 20, probe.getLong(VRAM_USED_BYTES));
    assertEquals(6360465408L, probe.getLong(VRAM_TOTAL_BYTES));

    RecordedEvent summary = named(SiteSummaryEvent.NAME).get(0);
    assertEquals("samples", summary.getString(SITE));
    assertEquals(5, summary.getLong(ADMISSIONS));
    assertEquals(1, summary.getLong(DECLINES));
    assertEquals(410_000, summary.getLong(ADMITTED_BYTES));

    Map<String, String> settings =
        named(ConfigurationEvent.NAME).stream()
            .collect(
                Collectors.toMap(e -> e.getString(KEY), e -> e.getString(SOURCE), (a, b) -> b));
    assertEquals(Map.of("mode", "DEFAULT", "heap_max_usage", "AGENT_ARGS"), settings);

    RecordedEvent woven = named(InstrumentedEvent.NAME).get(0);
    assertEquals("com.acme.data.SampleCache", woven.getString(CLASS_NAME));
    assertEquals("app", woven.getString(CLASS_LOADER));
    assertEquals("WOVEN", woven.getString(OUTCOME));
  }

  @Test
  void withoutARecordingTheEventsAreDisabledAndEmitIsANoOp() {
    assertFalse(new CacheAdmissionEvent().isEnabled(), "a recording is still running");
    assertFalse(admission().emit(), "committed without a recording");
  }

  @Test
  void decisionsOffKeepsTheSummaryAndDropsPerDecisionEvents(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("summary.jfr");
    try (Recording recording = new Recording(DecisionScenario.settings())) {
      recording.disable(CacheAdmissionEvent.NAME);
      recording.disable(ReleaseEvent.NAME);
      recording.start();
      admission().emit();
      ReleaseEvent.emit("s", "heap", 1, "COLLECTED", 0);
      SiteSummaryEvent.emit(
          "s",
          "heap",
          new SiteSummaryEvent.Counts(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1),
          0,
          0,
          2);
      recording.stop();
      recording.dump(file);
    }
    Set<String> names =
        RecordingFile.readAllEvents(file).stream()
            .map(e -> e.getEventType().getName())
            .filter(n -> n.startsWith("flodl."))
            .collect(Collectors.toSet());
    assertEquals(Set.of(SiteSummaryEvent.NAME), names);
    assertTrue(Files.size(file) > 0);
  }

  /** Returns a one-byte admission at site s, holding 1 of a budget of 2 with 3 available. */
  private static CacheAdmissionEvent admission() {
    return CacheAdmissionEvent.decided()
        .site("s")
        .tier("heap")
        .valueType("byte[]")
        .logicalBytes(1)
        .storageBytes(1)
        .chargedBytes(1)
        .decision("ADMIT")
        .heldBytes(1)
        .budgetBytes(2)
        .availableBytes(3);
  }
}
