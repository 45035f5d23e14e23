package org.flodl.budget.events;

import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.flodl.budget.events.EventFields.VALUE_TYPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jmc.common.IDescribable;
import org.openjdk.jmc.common.item.IAccessorKey;
import org.openjdk.jmc.common.item.IItem;
import org.openjdk.jmc.common.item.IItemCollection;
import org.openjdk.jmc.common.item.IItemIterable;
import org.openjdk.jmc.common.item.IMemberAccessor;
import org.openjdk.jmc.common.item.IType;
import org.openjdk.jmc.common.unit.IQuantity;
import org.openjdk.jmc.common.unit.UnitLookup;
import org.openjdk.jmc.flightrecorder.JfrLoaderToolkit;
import org.openjdk.jmc.flightrecorder.internal.EventArray;
import org.openjdk.jmc.flightrecorder.internal.FlightRecordingLoader;

/**
 * The recording opens in Mission Control's own parser ({@code org.openjdk.jmc:flightrecorder}):
 * every flodl event type is found by id with its label, its category path (as JMC's event browser
 * files it) and its fields, bytes read as JMC's memory quantities.
 */
class MissionControlParserTest {
  static Map<String, IItemIterable> byType = new HashMap<>();

  @BeforeAll
  static void load() throws Exception {
    IItemCollection items = JfrLoaderToolkit.loadEvents(DecisionScenario.sharedFile().toFile());
    for (IItemIterable iterable : items) {
      if (iterable.getType().getIdentifier().startsWith("flodl.")) {
        byType.put(iterable.getType().getIdentifier(), iterable);
      }
    }
  }

  @Test
  void everyFlodlTypeHasItsLabelDescriptionAndFields() {
    assertEquals(RecordedEventsTest.LABELS.keySet(), byType.keySet());
    for (Map.Entry<String, IItemIterable> entry : byType.entrySet()) {
      IType<IItem> type = entry.getValue().getType();
      assertEquals(RecordedEventsTest.LABELS.get(entry.getKey()), type.getName());
      assertNotNull(type.getDescription());
      assertTrue(entry.getValue().getItemCount() > 0);
      for (Map.Entry<IAccessorKey<?>, ? extends IDescribable> field :
          type.getAccessorKeys().entrySet()) {
        assertNotNull(
            field.getValue().getName(), entry.getKey() + "." + field.getKey().getIdentifier());
      }
    }
  }

  @Test
  void cacheAdmissionFieldsReadAsMemoryQuantitiesAndText() {
    IItemIterable admissions = byType.get(CacheAdmissionEvent.NAME);
    IType<IItem> type = admissions.getType();
    Map<String, IAccessorKey<?>> keys = new HashMap<>();
    Map<String, String> labels = new HashMap<>();
    for (Map.Entry<IAccessorKey<?>, ? extends IDescribable> e : type.getAccessorKeys().entrySet()) {
      keys.put(e.getKey().getIdentifier(), e.getKey());
      labels.put(e.getKey().getIdentifier(), e.getValue().getName());
    }
    for (String field :
        List.of(
            SITE,
            TIER,
            VALUE_TYPE,
            LOGICAL_BYTES,
            STORAGE_BYTES,
            CHARGED_BYTES,
            MATERIALIZED,
            DECISION,
            HELD_BYTES,
            BUDGET_BYTES,
            AVAILABLE_BYTES)) {
      assertTrue(keys.containsKey(field), field + " not in " + keys.keySet());
    }
    assertEquals("Charged Size", labels.get(CHARGED_BYTES));
    assertEquals(UnitLookup.MEMORY, keys.get(CHARGED_BYTES).getContentType());
    assertEquals(UnitLookup.MEMORY, keys.get(HELD_BYTES).getContentType());

    @SuppressWarnings("unchecked")
    IMemberAccessor<IQuantity, IItem> held =
        type.getAccessor((IAccessorKey<IQuantity>) keys.get(HELD_BYTES));
    @SuppressWarnings("unchecked")
    IMemberAccessor<String, IItem> decision =
        type.getAccessor((IAccessorKey<String>) keys.get(DECISION));
    long maxHeld = 0;
    int declines = 0;
    for (IItem item : admissions) {
      maxHeld = Math.max(maxHeld, held.getMember(item).clampedLongValueIn(UnitLookup.BYTE));
      declines += decision.getMember(item).equals("DECLINE") ? 1 : 0;
    }
    assertEquals(410_000, maxHeld);
    assertEquals(1, declines);
  }

  @Test
  void eventBrowserFilesThemUnderFlodl() throws Exception {
    Map<String, List<String>> categories = new HashMap<>();
    try (InputStream in = Files.newInputStream(DecisionScenario.sharedFile())) {
      for (EventArray array : FlightRecordingLoader.loadStream(in, false, false).getArrays()) {
        String id = array.getType().getIdentifier();
        if (id.startsWith("flodl.")) {
          categories.put(id, Arrays.asList(array.getTypeCategory()));
        }
      }
    }
    assertEquals(RecordedEventsTest.CATEGORIES, categories);
  }
}
