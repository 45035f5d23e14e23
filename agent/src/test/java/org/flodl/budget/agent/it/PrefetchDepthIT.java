package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.AVAILABLE_BYTES;
import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.MAX_USAGE;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.SLOTS;
import static org.flodl.budget.events.EventFields.TOTAL_BYTES;
import static org.flodl.budget.events.EventFields.USED_BYTES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.junit.jupiter.api.Test;

/**
 * Prefetch depth on an unmodified loader: a constructor argument on the host (ring slots from host
 * RAM, priced by the batches the batch site saw; {@code UNPRICED_BATCH} until one passed) and an
 * {@code int} return on a GPU (VRAM depth with its floor); {@code prefetch=cap} only lowers the
 * request, {@code prefetch=auto} applies the policy's depth, {@code observe} changes nothing.
 */
class PrefetchDepthIT {

  private static ChildJvm.Result run(String name, Jdk jdk, String args) throws Exception {
    Path sites = Sites.write("feeder", Sites.FEEDER);
    // Direct batches: host RAM (the fixed probe) bounds them, not the heap.
    return ChildJvm.on(name, jdk)
        .agent("sites=" + sites + "," + args)
        .record()
        .run(
            "com.acme.it.DepthApp",
            "--epochs=2",
            "--depth=8",
            "--batch-bytes=65536",
            "--direct=true");
  }

  @Test
  void aRingOfHeapBatchesIsSizedFromTheHeapNotHostRam() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    Path sites = Sites.write("feeder", Sites.FEEDER);
    // 16 MiB batches of heap arrays at -Xmx64m, host RAM plentiful (1 GiB fixed): half of what
    // the heap has available buys one batch or two, not the 8 asked for. The second epoch starts
    // on a heap without the first's batches (collected, and read by the probe: its heap budget
    // holds a batch), whenever the collector would have run on its own. A batch is priced at what
    // it takes of the heap in whole G1 regions, 20 MiB here: the budget waited for holds that
    // (waiting for 18 MiB, a budget of 20 MiB less 312 bytes was taken and the batch did not fit).
    ChildJvm.Result r =
        ChildJvm.on("depth-heap", jdk)
            .jvm("-Xmx64m")
            .agent("sites=" + sites + ",ram_probe=fixed:1G,vram_probe=fixed:1G/2G")
            .record()
            .run(
                "com.acme.it.DepthApp",
                "--epochs=2",
                "--depth=8",
                "--batch-bytes=16777216",
                "--batches=2",
                "--settle-heap=" + (21L << 20));
    assertEquals(0, r.exitCode, r.toString());
    RecordedEvent priced =
        r.events(PrefetchDepthEvent.NAME).stream()
            .filter(e -> e.getString(SITE).equals("feed"))
            .toList()
            .get(1);
    assertEquals("CAPACITY", priced.getString(REASON), priced.toString());
    assertTrue(priced.getLong(DEPTH) <= 2, "the heap, not 1 GiB of host RAM: " + priced);
    // A host decision reads no GPU: its inputs are the ring's, in the RingSlots event beside it.
    assertEquals(-1, priced.getLong(USED_BYTES), priced.toString());
    assertEquals(-1, priced.getLong(TOTAL_BYTES), priced.toString());
    assertEquals(0.5, priced.getDouble(MAX_USAGE), "heap_max_usage: " + priced);
    RecordedEvent ring =
        r.events(RingSlotsEvent.NAME).stream()
            .filter(e -> e.getString(SITE).equals("feed"))
            .toList()
            .get(1);
    assertTrue(ring.getLong(AVAILABLE_BYTES) < 64L << 20, "the heap's available: " + ring);
    assertEquals(priced.getLong(DEPTH), ring.getLong(SLOTS), ring.toString());
  }

  @Test
  void capLowersTheRequestToWhatHostRamAndVramBuy() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    ChildJvm.Result r = run("depth-cap", jdk, "ram_probe=fixed:1M,vram_probe=fixed:1945M/2G");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("40", r.value("SAMPLES"), "every batch still served: " + r);
    List<RecordedEvent> feed =
        r.events(PrefetchDepthEvent.NAME).stream()
            .filter(e -> e.getString(SITE).equals("feed"))
            .toList();
    assertEquals(2, feed.size(), r.toString());
    // Epoch 0: nothing priced yet, the host ring's fallback (4) under the request (8).
    assertEquals("UNPRICED_BATCH", feed.get(0).getString(REASON));
    assertEquals(4, feed.get(0).getLong(DEPTH));
    assertEquals("4", r.value("EPOCH0"));
    // Epoch 1: a batch of ~64 KiB priced; half of 1 MiB buys fewer than 8 of them.
    RecordedEvent priced = feed.get(1);
    assertEquals("CAPACITY", priced.getString(REASON), priced.toString());
    long batch = priced.getLong(BATCH_BYTES);
    assertTrue(batch >= 65536, "the batch was priced at its payload at least: " + priced);
    assertEquals((1L << 19) / batch, priced.getLong(DEPTH), priced.toString());
    assertEquals(Long.toString(priced.getLong(DEPTH)), r.value("EPOCH1"));
    assertTrue(r.events(RingSlotsEvent.NAME).size() >= 2);

    // The GPU site: 1945 MiB of 2 GiB used, no room under 90 % and too little free for the floor.
    List<RecordedEvent> pref =
        r.events(PrefetchDepthEvent.NAME).stream()
            .filter(e -> e.getString(SITE).equals("pref"))
            .toList();
    assertEquals(2, pref.size());
    assertEquals("SYNC_FALLBACK", pref.get(0).getString(REASON), pref.get(0).toString());
    assertEquals(16, pref.get(0).getLong(REQUESTED_DEPTH));
    assertEquals("0", r.value("PREFERRED0"));
  }

  @Test
  void autoAppliesThePolicysDepthAndObserveChangesNothing() throws Exception {
    Jdk jdk = Jdk.JDK17; // the JDK 25 smoke cases are elsewhere (ChildJvm.Jdk)
    ChildJvm.Result auto =
        run("depth-auto", jdk, "prefetch=auto,ram_probe=fixed:1G,vram_probe=fixed:1G/2G");
    assertEquals(0, auto.exitCode, auto.toString());
    assertTrue(Integer.parseInt(auto.value("EPOCH1")) > 8, "auto raises the depth: " + auto);
    // (1.8 GiB cap - 1 GiB used) / 1 MiB batches
    assertEquals("819", auto.value("PREFERRED0"), auto.toString());

    ChildJvm.Result observe =
        run("depth-observe", jdk, "mode=observe,ram_probe=fixed:1M,vram_probe=fixed:1945M/2G");
    assertEquals(0, observe.exitCode, observe.toString());
    assertEquals("8", observe.value("EPOCH0"));
    assertEquals("8", observe.value("EPOCH1"));
    assertEquals("16", observe.value("PREFERRED1"));
    assertEquals(
        4, observe.events(PrefetchDepthEvent.NAME).size(), "observe still decides and records");
  }
}
