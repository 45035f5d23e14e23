package org.flodl.budget.events;

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
 * Reads the recorded decisions back with {@code jdk.jfr.consumer}: every flodl event type with
 * its label, category and described fields, bytes and fractions carrying their units, the field
 * values the policy and the ledger decided, and the hot-path events without stack traces.
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

  static final Set<String> FRACTIONS = Set.of("maxUsage", "hostShare", "ramMaxUsage");
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
        assertTrue(Character.isUpperCase(field.getLabel().charAt(0)), where + " label " + field.getLabel());
        assertFalse(field.getLabel().endsWith("."), where);
        assertNotNull(field.getDescription(), where);
        boolean bytes =
            field.getName().endsWith("Bytes")
                || field.getName().equals("bytes")
                || field.getName().equals("activationReserve");
        if (bytes) {
          DataAmount amount = field.getAnnotation(DataAmount.class);
          assertNotNull(amount, where + " is bytes without @DataAmount");
          assertEquals(DataAmount.BYTES, amount.value(), where);
          assertEquals("jdk.jfr.DataAmount", field.getContentType(), where);
        } else if (FRACTIONS.contains(field.getName())) {
          assertNotNull(field.getAnnotation(Percentage.class), where + " is a fraction without @Percentage");
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
    assertEquals(scenario.decisions,
        admissions.stream().map(e -> e.getString("decision")).collect(Collectors.toList()));
    assertEquals(List.of("ADMIT", "ADMIT", "ADMIT_MATERIALIZED", "ADMIT", "ADMIT", "DECLINE"),
        scenario.decisions);
    long budget = scenario.budget.budgetBytes();
    assertEquals(500_000, budget);
    for (int i = 0; i < admissions.size(); i++) {
      RecordedEvent e = admissions.get(i);
      assertEquals("samples", e.getString("site"));
      assertEquals("heap", e.getString("tier"));
      assertEquals(scenario.heldAfter.get(i), e.getLong("heldBytes"));
      assertEquals(budget, e.getLong("budgetBytes"));
      assertEquals(DecisionScenario.AVAILABLE, e.getLong("availableBytes"));
      if (!e.getString("decision").equals("DECLINE")) {
        assertTrue(e.getLong("heldBytes") <= e.getLong("budgetBytes"));
      }
      assertNull(e.getStackTrace(), "CacheAdmission is a hot-path event: no stack trace");
    }
    RecordedEvent view = admissions.get(2);
    assertEquals("java.nio.HeapByteBuffer", view.getString("valueType"));
    assertEquals(DecisionScenario.VIEW_LOGICAL, view.getLong("logicalBytes"));
    assertEquals(DecisionScenario.VIEW_STORAGE, view.getLong("storageBytes"));
    assertEquals(DecisionScenario.VIEW_LOGICAL, view.getLong("chargedBytes"));
    assertTrue(view.getBoolean("materialized"));
    RecordedEvent declined = admissions.get(5);
    assertEquals(410_000, declined.getLong("heldBytes"));
    assertEquals(DecisionScenario.VALUE, declined.getLong("chargedBytes"));
    assertFalse(declined.getBoolean("materialized"));
  }

  @Test
  void releaseBudgetAndSplitCarryThePolicysNumbers() {
    RecordedEvent release = named(ReleaseEvent.NAME).get(0);
    assertEquals(DecisionScenario.VALUE, release.getLong("bytes"));
    assertEquals(310_000, release.getLong("heldBytes"));
    assertEquals("RELEASE_SITE", release.getString("cause"));
    assertNull(release.getStackTrace());

    RecordedEvent budget = named(RamBudgetEvent.NAME).get(0);
    assertEquals("heap", budget.getString("tier"));
    assertEquals(0.5, budget.getDouble("maxUsage"));
    assertEquals(1.0, budget.getDouble("hostShare"));
    assertEquals(500_000, budget.getLong("budgetBytes"));

    RecordedEvent split = named(StagerSplitEvent.NAME).get(0);
    assertEquals(1003, split.getLong("totalBytes"));
    assertEquals(753, split.getLong("pinnedBytes"));
    assertEquals(250, split.getLong("streamBytes"));
  }

  @Test
  void prefetchAndRingRecordDepthSlotsAndReasonByName() {
    RecordedEvent depth = named(PrefetchDepthEvent.NAME).get(0);
    assertEquals("djl", depth.getString("site"));
    assertEquals("cuda:0", depth.getString("device"));
    assertEquals(5592L << 20, depth.getLong("usedBytes"));
    assertEquals(6360465408L, depth.getLong("totalBytes"));
    assertEquals(32L << 20, depth.getLong("batchBytes"));
    assertEquals(4, depth.getLong("requestedDepth"));
    assertEquals(0, depth.getLong("depth"));
    assertEquals("SYNC_FALLBACK", depth.getString("reason"));
    assertNotNull(depth.getStackTrace(), "PrefetchDepth keeps its stack trace: which loader asked");

    RecordedEvent ring = named(RingSlotsEvent.NAME).get(0);
    assertEquals(8, ring.getLong("slots"));
    assertEquals("CACHE_CAP", ring.getString("reason"));
    assertTrue(ring.getBoolean("cacheActive"));
  }

  @Test
  void periodicEventsCarryWhatTheirFillersSet() {
    RecordedEvent probe = named(MemoryProbeEvent.NAME).get(0);
    assertEquals(DecisionScenario.AVAILABLE, probe.getLong("hostAvailableBytes"));
    assertEquals(DecisionScenario.AVAILABLE, probe.getLong("heapAvailableBytes"));
    assertEquals(310_000, probe.getLong("heapHeldBytes"));
    assertEquals(500_000, probe.getLong("heapBudgetBytes"));
    assertEquals(-1, probe.getLong("directHeldBytes"), "a tier the filler left unset reads -1");
    assertEquals(-1, probe.getLong("directAvailableBytes"));
    assertEquals(5592L << 20, probe.getLong("vramUsedBytes"));
    assertEquals(6360465408L, probe.getLong("vramTotalBytes"));

    RecordedEvent summary = named(SiteSummaryEvent.NAME).get(0);
    assertEquals("samples", summary.getString("site"));
    assertEquals(5, summary.getLong("admissions"));
    assertEquals(1, summary.getLong("declines"));
    assertEquals(410_000, summary.getLong("admittedBytes"));

    Map<String, String> settings =
        named(ConfigurationEvent.NAME).stream()
            .collect(Collectors.toMap(e -> e.getString("key"), e -> e.getString("source"), (a, b) -> b));
    assertEquals(Map.of("mode", "DEFAULT", "heap_max_usage", "AGENT_ARGS"), settings);

    RecordedEvent woven = named(InstrumentedEvent.NAME).get(0);
    assertEquals("com.acme.data.SampleCache", woven.getString("className"));
    assertEquals("app", woven.getString("classLoader"));
    assertEquals("WOVEN", woven.getString("outcome"));
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
      SiteSummaryEvent.emit("s", "heap",
          new SiteSummaryEvent.Counts(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1), 0, 0, 2);
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
    return CacheAdmissionEvent.decided().site("s").tier("heap").valueType("byte[]")
        .logicalBytes(1).storageBytes(1).chargedBytes(1).decision("ADMIT").heldBytes(1)
        .budgetBytes(2).availableBytes(3);
  }
}
