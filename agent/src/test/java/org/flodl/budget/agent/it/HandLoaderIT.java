package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CAUSE;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.ReleaseCause;
import org.flodl.budget.events.ReleaseEvent;
import org.junit.jupiter.api.Test;

/**
 * A hand-written loader, reached through call sites only: its {@code HashMap} field filled in
 * {@code Dataset.get(int)} and its {@code new ArrayBlockingQueue<>(depth)}. Without the agent it
 * dies of OutOfMemoryError at -Xmx256m (200 rows of 1 MiB, 2 MiB each on G1); with DESIGN.md's
 * call-site example it completes, every row delivered with the big-heap checksum, declines
 * recorded, no admission over budget, and each epoch's queue built with the depth the policy
 * decided (below the 16 asked for). (The heap is 256 MiB, not the library tests' 128: besides the
 * cache's half of the heap and the queue's ring, the producer's batch under construction and the
 * consumer's batch live outside any budget, and at 128 MiB of humongous 1 MiB rows they ran out of
 * room one run in six.)
 */
class HandLoaderIT {
  private static final String APP = "com.acme.loader.HandTrain";

  static final String SITES =
      """
      site.rows.kind    = cache-admit
      site.rows.in      = com.acme.loader.Dataset#get(int)
      site.rows.method  = java.util.Map#put(java.lang.Object,java.lang.Object)
      site.rows.value   = 1
      site.rows.release = java.util.Map#remove(java.lang.Object)

      site.queue.kind   = prefetch-depth
      site.queue.in     = com.acme.loader.PrefetchLoader#<init>
      site.queue.method = java.util.concurrent.ArrayBlockingQueue#<init>(int)
      site.queue.depth  = 0
      site.queue.batch  = com.acme.loader.PrefetchLoader#next
      """;

  @Test
  void callSitesBoundAHashMapFieldAndSizeAnArrayBlockingQueue() throws Exception {
    ChildJvm.Result bare = ChildJvm.on("hand-bare", Jdk.JDK17).jvm("-Xmx256m").run(APP);
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());

    ChildJvm.Result big = ChildJvm.on("hand-big", Jdk.JDK17).jvm("-Xmx900m").run(APP);
    assertEquals(0, big.exitCode, big.toString());

    Path sites = Sites.write("hand", SITES);
    ChildJvm.Result r =
        ChildJvm.on("hand", Jdk.JDK17)
            .jvm("-Xmx256m", "-Xverify:all")
            .agent("sites=" + sites)
            .record()
            .run(APP);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("600", r.value("DELIVERED"));
    assertEquals(big.value("CHECKSUM"), r.value("CHECKSUM"), "the same rows trained on");
    for (String broken :
        List.of(
            "ASSERTION FAILED",
            "StackOverflowError",
            "gate failed",
            "OutOfMemoryError",
            "not woven")) {
      assertFalse(r.stderr.contains(broken), broken + ": " + r);
    }
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    long admits =
        decisions.stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .count();
    assertTrue(admits > 0 && admits < decisions.size(), "admits and declines: " + decisions.size());
    for (RecordedEvent e : decisions) {
      assertEquals("rows", e.getString(SITE));
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), e.toString());
      }
    }
    assertEquals(admits, Long.parseLong(r.value("CACHED")), "the map keeps what was admitted");
    assertEquals(admits, Long.parseLong(r.value("DROPPED")));
    long released =
        r.events(ReleaseEvent.NAME).stream()
            .filter(e -> e.getString(CAUSE).equals(ReleaseCause.RELEASE_SITE.name()))
            .count();
    assertEquals(admits, released, "every remove released its row, through the JDK's Map");

    List<RecordedEvent> depths = r.events(PrefetchDepthEvent.NAME);
    assertEquals(3, depths.size(), "one decision per epoch's queue");
    String[] capacities = r.value("CAPACITIES").split(",");
    for (int i = 0; i < 3; i++) {
      RecordedEvent d = depths.get(i);
      assertEquals("queue", d.getString(SITE));
      assertEquals(16, d.getLong(REQUESTED_DEPTH));
      assertEquals(
          d.getLong(DEPTH),
          Long.parseLong(capacities[i]),
          "the queue was built with the decided depth: " + d);
      assertTrue(d.getLong(DEPTH) < 16, d.toString());
    }
    assertEquals("UNPRICED_BATCH", depths.get(0).getString(REASON), "no batch priced yet");
    assertTrue(depths.get(2).getLong(BATCH_BYTES) >= 4L << 20, "batches of 4 rows priced");
  }
}
