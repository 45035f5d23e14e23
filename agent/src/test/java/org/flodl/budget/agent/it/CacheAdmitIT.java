package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.SOURCE;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.ReleaseEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The product's promise on an unmodified app: an unbounded cache of 1 MiB samples dies of
 * OutOfMemoryError at -Xmx256m without the agent and completes with it, every sample trained on,
 * declines recorded, and no admission leaving the heap tier's held bytes over its budget.
 */
class CacheAdmitIT {

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void enforceTurnsAnOutOfMemoryErrorIntoDeclines(Jdk jdk) throws Exception {
    ChildJvm.Result bare =
        ChildJvm.on("oom-bare", jdk).jvm("-Xmx256m").run("com.acme.it.CacheApp", "--samples=400");
    assertNotEquals(0, bare.exitCode, "without the agent the app must fail: " + bare);
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());

    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("oom-enforce", jdk)
            .jvm("-Xmx256m")
            .agent("sites=" + sites)
            .record()
            .run("com.acme.it.CacheApp", "--samples=400", "--evict-at-end");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("400", r.value("DELIVERED"), r.toString());
    int cached = Integer.parseInt(r.value("CACHED"));
    assertTrue(cached > 0 && cached < 400, "the cache kept part of the samples: " + r);

    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(400, admissions.size(), "one decision per put");
    long admits =
        admissions.stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .count();
    long declines =
        admissions.stream()
            .filter(e -> e.getString(DECISION).equals(Decision.DECLINE.name()))
            .count();
    assertEquals(cached, admits, "what the cache kept is what was admitted");
    assertEquals(400 - cached, declines);
    for (RecordedEvent e : admissions) {
      assertEquals("samples", e.getString(SITE));
      assertEquals("heap", e.getString(TIER));
      assertEquals(1 << 20, e.getLong(LOGICAL_BYTES));
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), "admission over budget: " + e);
      }
    }
    assertEquals("heap=0", r.value("HELD_AFTER_EVICT"), "every admitted byte released: " + r);
    long released = r.events(ReleaseEvent.NAME).stream().mapToLong(e -> e.getLong(BYTES)).sum();
    long charged =
        admissions.stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .mapToLong(e -> e.getLong(CHARGED_BYTES))
            .sum();
    assertEquals(charged, released, "released exactly what was admitted");
  }

  @Test
  void recordWritesTheAgentsOwnRecordingAtExit() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("store", Sites.STORE);
    Path file = ChildJvm.WORK.resolve("record-" + jdk + ".jfr").toAbsolutePath();
    java.nio.file.Files.deleteIfExists(file);
    ChildJvm.Result r =
        ChildJvm.on("record", jdk)
            .jvm("-Xmx256m")
            .agent("sites=" + sites + ",record=" + file)
            .run("com.acme.it.CacheApp", "--samples=200", "--pace-ms=5");
    assertEquals(0, r.exitCode, r.toString());
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    java.util.Set<String> names = new java.util.TreeSet<>();
    events.forEach(e -> names.add(e.getEventType().getName()));
    for (String n :
        List.of(
            CacheAdmissionEvent.NAME,
            RamBudgetEvent.NAME,
            InstrumentedEvent.NAME,
            ConfigurationEvent.NAME,
            MemoryProbeEvent.NAME)) {
      assertTrue(names.contains(n), n + " missing from " + names);
    }
    assertTrue(
        events.stream()
            .anyMatch(
                e ->
                    e.getEventType().getName().equals(ConfigurationEvent.NAME)
                        && e.getString(KEY).equals("sites")
                        && e.getString(SOURCE).equals("AGENT_ARGS")),
        "settings and their source recorded");
  }
}
