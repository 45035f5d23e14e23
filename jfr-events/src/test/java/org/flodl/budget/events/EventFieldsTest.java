package org.flodl.budget.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import jdk.jfr.Event;
import org.junit.jupiter.api.Test;

/**
 * {@link EventFields} names every field the events declare, and nothing else: a field added to an
 * event without its constant, a constant left behind by a removed field, or one spelled unlike its
 * field fails here, before a reader looks for a name no recording has.
 */
class EventFieldsTest {
  private static final List<Class<? extends Event>> EVENTS =
      List.of(
          CacheAdmissionEvent.class,
          ConfigurationEvent.class,
          InstrumentedEvent.class,
          MemoryProbeEvent.class,
          PrefetchDepthEvent.class,
          RamBudgetEvent.class,
          ReclaimEvent.class,
          RecordingProblemEvent.class,
          ReleaseEvent.class,
          RingSlotsEvent.class,
          SamplingEvent.class,
          SiteSummaryEvent.class,
          StagerSplitEvent.class);

  /** The fields Flight Recorder adds to an event class itself. */
  private static final Set<String> JFR_OWN = Set.of("startTime", "duration");

  private static final Set<String> SUFFIXES =
      Set.of("PROBE_AVAILABLE_SUFFIX", "PROBE_HELD_SUFFIX", "PROBE_BUDGET_SUFFIX");

  @Test
  void theConstantsAreTheEventsFieldsSpelledAsTheirNames() throws Exception {
    Map<String, String> constants = new TreeMap<>();
    for (Field f : EventFields.class.getDeclaredFields()) {
      if (Modifier.isStatic(f.getModifiers())
          && f.getType() == String.class
          && !SUFFIXES.contains(f.getName())) {
        constants.put(f.getName(), (String) f.get(null));
      }
    }
    Set<String> declared = new TreeSet<>();
    for (Class<? extends Event> c : EVENTS) {
      for (Field f : c.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers()) && !JFR_OWN.contains(f.getName())) {
          declared.add(f.getName());
        }
      }
    }
    assertEquals(declared, new TreeSet<>(constants.values()), "one constant a field name");
    constants.forEach(
        (name, value) ->
            assertEquals(
                value.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT), name, value));
  }

  @Test
  void theSuffixesMakeMemoryProbesPerTierFields() throws Exception {
    Set<String> probe =
        Stream.of(MemoryProbeEvent.class.getDeclaredFields())
            .map(Field::getName)
            .collect(Collectors.toSet());
    for (String tier : List.of("heap", "direct", "native", "mapped", "device")) {
      for (String suffix :
          List.of(
              EventFields.PROBE_AVAILABLE_SUFFIX,
              EventFields.PROBE_HELD_SUFFIX,
              EventFields.PROBE_BUDGET_SUFFIX)) {
        assertTrue(probe.contains(tier + suffix), tier + suffix);
      }
    }
  }

  @Test
  void everyEventClassIsChecked() throws Exception {
    // The events module's classes named *Event, as the agent's EventFieldsIT finds them.
    Path where =
        Path.of(
                CacheAdmissionEvent.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI())
            .resolve(CacheAdmissionEvent.class.getPackageName().replace('.', '/'));
    Set<String> found;
    try (Stream<Path> files = Files.list(where)) {
      found =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith("Event.class"))
              .map(n -> n.substring(0, n.length() - ".class".length()))
              .collect(Collectors.toCollection(TreeSet::new));
    }
    assertEquals(
        found,
        EVENTS.stream().map(Class::getSimpleName).collect(Collectors.toCollection(TreeSet::new)));
  }
}
