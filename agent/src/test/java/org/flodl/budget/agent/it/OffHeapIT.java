package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.CHARGED_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Off-heap, reference-counted slices in a cache ({@code test-apps/offheap-app}): an Arrow loader
 * whose every sample is a 1 KiB slice of a 2 MiB row-group allocation, on Arrow 19 and Arrow 15,
 * with Unsafe's and Netty's allocation managers; and a Netty loader caching retained slices of
 * pooled direct buffers. At a limit the job dies under without the agent (Arrow's own, or {@code
 * MaxDirectMemorySize}), under the agent it completes with the checksum of a roomy run without it:
 * a slice is copied from its own allocator and the cache keeps every sample, or, where its site
 * keeps views, it is charged its whole allocation on the tier its memory is on; every declined one
 * and every original a copy replaced is released once the app no longer reaches it (Arrow's
 * allocator closes with nothing outstanding; Netty's leak detector at PARANOID reports nothing,
 * where it does report the app's own leak), and the recording's counts are the app's puts.
 */
class OffHeapIT {
  static final Path APP = Path.of("../test-apps/offheap-app/target");
  static final String OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

  /** The row group's allocation: 1024 rows of 256 floats and the validity, rounded up. */
  static final long ALLOCATION = 2L << 20;

  static final String CHECKSUM = "12798200.000"; // 400 samples x 2 epochs, as every run computes

  static String sites(String loader) {
    return "site.samples.kind = cache-admit\n"
        + "site.samples.in = com.acme.offheap."
        + loader
        + "#load(int)\n"
        + "site.samples.method = java.util.Map#put(java.lang.Object,java.lang.Object)\n"
        + "site.samples.value = 1\n"
        + "site.samples.release = java.util.Map#remove(java.lang.Object)\n";
  }

  /**
   * The seed's view rule on Arrow: each 1 KiB slice pins its 2 MiB row group, over twice what it
   * addresses, so it is copied from the allocator it came from and the cache keeps every sample
   * (every second-epoch sample a hit); the originals the copies replace are released once the app
   * no longer reaches them, and the allocator closes with nothing outstanding. With {@code views =
   * keep} the slices are kept as they are, charged the row group, most declined, each declined one
   * released: the job completes on the checksum all the same.
   */
  @ParameterizedTest(name = "Arrow {0}, {1} allocation manager, slice={2}, views={3}")
  @CsvSource({
    "19, Unsafe, transfer, copy",
    "19, Netty, buf, copy",
    "15, Unsafe, buf, copy",
    "15, Netty, transfer, copy",
    "19, Unsafe, buf, keep",
    "15, Netty, transfer, keep"
  })
  void arrowSlicesAreCopiedFromTheirAllocatorOrKeptAndChargedTheirAllocation(
      int arrow, String manager, String slice, String views) throws Exception {
    boolean netty = manager.equals("Netty");
    boolean copy = views.equals("copy");
    // Netty's allocations are bounded by MaxDirectMemorySize, Unsafe's by Arrow's own limit.
    String[] tight = {
      "-XX:MaxDirectMemorySize=" + (netty ? "128m" : "1g"),
      "-Darrow.allocation.manager.type=" + manager
    };
    String limit = "limit=" + (netty ? "1g" : "128m");
    String name = "offheap-arrow" + arrow + "-" + manager + "-" + slice + "-" + views;
    if (arrow == 19
        && copy) { // the controls, once a manager: the checksum is the same on every Arrow
      ChildJvm.Result roomy =
          arrow(name + "-roomy", arrow, null)
              .jvm("-Darrow.allocation.manager.type=" + manager)
              .run("com.acme.offheap.ArrowLoader", "limit=1g", "slice=" + slice);
      assertEquals(0, roomy.exitCode, roomy.toString());
      assertEquals(CHECKSUM, roomy.value("checksum"), roomy.toString());
      ChildJvm.Result bare =
          arrow(name + "-bare", arrow, null)
              .jvm(tight)
              .run("com.acme.offheap.ArrowLoader", limit, "slice=" + slice);
      assertNotEquals(0, bare.exitCode, "without the agent the job dies of the limit: " + bare);
    }
    ChildJvm.Result r =
        arrow(name, arrow, views)
            .jvm(tight)
            .run("com.acme.offheap.ArrowLoader", limit, "slice=" + slice);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(CHECKSUM, r.value("checksum"), "the samples the job trained on (a roomy run's)");
    assertEquals("true", r.value("closed"), "the allocator closed with nothing outstanding: " + r);
    // Arrow's limit bounds the native tier (Unsafe), MaxDirectMemorySize the direct one (Netty).
    if (copy) {
      assertCopied(r, netty ? "direct" : "native", 128L << 20, ALLOCATION);
    } else {
      assertExact(r, netty ? "direct" : "native", 128L << 20);
    }
  }

  /**
   * Netty's retained slices of 256 KiB pooled buffers: each is copied from its own allocator, so
   * the cache keeps every sample, and the original's reference is released once the app no longer
   * reaches it; with {@code views = keep} each is charged its pooled slot, most declined, each
   * declined one released. Netty's leak detector at PARANOID reports nothing either way.
   */
  @Test
  void nettyRetainedSlicesAreCopiedOrChargedTheirPooledSlotAndNeverLeak() throws Exception {
    String paranoid = "-Dio.netty.leakDetection.level=paranoid";
    ChildJvm.Result roomy =
        netty("offheap-netty-roomy", null)
            .jvm(paranoid, "-XX:MaxDirectMemorySize=1g")
            .run("com.acme.offheap.NettyLoader");
    assertEquals(0, roomy.exitCode, roomy.toString());
    assertFalse(roomy.stderr.contains("LEAK:"), roomy.toString());
    // The control: the detector does see a slice the app itself drops unreleased.
    ChildJvm.Result leaking =
        netty("offheap-netty-leaking", null)
            .jvm(paranoid, "-XX:MaxDirectMemorySize=1g")
            .run("com.acme.offheap.NettyLoader", "leak=1");
    assertTrue(leaking.stderr.contains("LEAK:"), "the leak check sees a leak: " + leaking);
    ChildJvm.Result bare =
        netty("offheap-netty-bare", null)
            .jvm(paranoid, "-XX:MaxDirectMemorySize=64m")
            .run("com.acme.offheap.NettyLoader");
    assertNotEquals(0, bare.exitCode, "without the agent the job runs out of direct memory");

    for (String views : new String[] {"copy", "keep"}) {
      ChildJvm.Result r =
          netty("offheap-netty-" + views, views)
              .jvm(paranoid, "-XX:MaxDirectMemorySize=64m")
              .run("com.acme.offheap.NettyLoader");
      assertEquals(0, r.exitCode, r.toString());
      assertEquals(roomy.value("checksum"), r.value("checksum"));
      assertFalse(r.stderr.contains("LEAK:"), "a declined or copied slice leaked: " + r);
      if (views.equals("copy")) {
        assertCopied(r, "direct", 64L << 20, 256L << 10);
      } else {
        assertExact(r, "direct", 64L << 20);
      }
    }
  }

  /**
   * On JDK 25 Netty 4.2 makes its direct buffers from shared arenas ({@code CleanerJava25}): no JDK
   * counter sees them and {@code MaxDirectMemorySize} does not bound them, so the loader completes
   * at 64 MiB without the agent, every sample cached. Under the agent they are native memory to the
   * budget, as they are to the machine: nothing is declined against a direct budget that does not
   * govern them, and the job keeps every hit it had.
   */
  @Test
  void nettysDirectBuffersOnJdk25AreChargedOnTheNativeTierWhereTheirMemoryIs() throws Exception {
    ChildJvm.Result bare =
        ChildJvm.on("offheap-netty-bare-jdk25", Jdk.JDK25)
            .classPath(arrowClassPath(19))
            .jvm("-XX:MaxDirectMemorySize=64m")
            .run("com.acme.offheap.NettyLoader");
    assertEquals(0, bare.exitCode, "on JDK 25 Netty's buffers outgrow no JDK limit: " + bare);
    ChildJvm.Result r =
        ChildJvm.on("offheap-netty-jdk25", Jdk.JDK25)
            .classPath(arrowClassPath(19))
            .jvm("-XX:MaxDirectMemorySize=64m")
            .agent("sites=" + Sites.write("offheap-netty-jdk25", sites("NettyLoader")))
            .record()
            .run("com.acme.offheap.NettyLoader");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(bare.value("checksum"), r.value("checksum"), r.toString());
    assertEquals(bare.value("hits"), r.value("hits"), "every hit the job had: " + r);
    long native_ = 0;
    long elsewhere = 0;
    long declines = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      long n = e.getLong("admissions") + e.getLong("declines");
      declines += e.getLong("declines");
      if (e.getString("tier").equalsIgnoreCase("native")) {
        native_ += n;
      } else {
        elsewhere += n;
      }
    }
    assertTrue(native_ > 0 && elsewhere == 0, "decided on the native tier: " + r);
    assertEquals(0, declines, "nothing declined: " + r);
  }

  /**
   * {@code suggest} on the loaders and their class path: it finds the Arrow loader's cache (a
   * HashMap field's put, the remove that evicts), and names Arrow and Netty, found there, in a
   * comment each (no preset line: their values are priced wherever a site admits one); a run with
   * the file it printed, used as it is, completes at the tight limit.
   */
  @Test
  void suggestFindsTheCacheAndNamesArrowAndNettyWithoutAPreset() throws Exception {
    List<String> cp = new ArrayList<>();
    for (Path p : arrowClassPath(19)) {
      cp.add(p.toAbsolutePath().toString());
    }
    Process p =
        new ProcessBuilder(
                Jdk.JDK17.java().toString(),
                "-jar",
                ChildJvm.AGENT_JAR.toAbsolutePath().toString(),
                "suggest",
                "--package",
                "com.acme.offheap",
                String.join(java.io.File.pathSeparator, cp))
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, p.waitFor(), out);
    String flat = out.replaceAll("\\s*\\n#\\s+", " ");
    assertTrue(flat.contains("arrow: Apache Arrow buffers"), out);
    assertTrue(flat.contains("netty: Netty ByteBufs"), out);
    assertTrue(flat.contains("with no preset"), out);
    assertFalse(out.lines().anyMatch(l -> l.startsWith("presets")), out);
    assertTrue(out.contains("com.acme.offheap.ArrowLoader"), out);
    Path sites = ChildJvm.WORK.resolve("offheap-suggested.properties").toAbsolutePath();
    Files.writeString(sites, out);
    ChildJvm.Result r =
        ChildJvm.on("offheap-suggested", Jdk.JDK17)
            .jvm(OPENS, "-Darrow.allocation.manager.type=Unsafe")
            .classPath(arrowClassPath(19))
            .agent("sites=" + sites)
            .run("com.acme.offheap.ArrowLoader", "limit=128m");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(CHECKSUM, r.value("checksum"));
    assertEquals("true", r.value("closed"), r.toString());
  }

  /**
   * Asserts the recording's counts are the app's puts, every admission charged at least the
   * allocation its slice pins on {@code tier} against a budget within the library's {@code bound},
   * and each admitted byte released once.
   */
  private static void assertExact(ChildJvm.Result r, String tier, long bound) throws Exception {
    long puts = Long.parseLong(r.value("puts"));
    long hits = Long.parseLong(r.value("hits"));
    assertEquals(800, puts + hits, "400 samples, two epochs: " + r);
    Map<String, Long> s = ExportersIT.summaries(r.recording, "samples");
    assertEquals(puts, s.get(ADMISSIONS) + s.get(DECLINES) + s.get(ALREADY_HELD), "" + s);
    assertTrue(s.get(ADMISSIONS) > 0 && s.get(DECLINES) > 0, "admitted and declined: " + s);
    assertEquals(s.get(ADMISSIONS), s.get(RELEASES), "each admitted slice evicted: " + s);
    assertEquals(s.get(ADMITTED_BYTES), s.get(RELEASED_BYTES), "each byte released once: " + s);
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(puts, decisions.size(), "one event per decision");
    for (RecordedEvent e : decisions) {
      assertEquals(tier, e.getString(TIER), e.toString());
      assertTrue(e.getLong(BUDGET_BYTES) <= bound, "a budget past the library's bound: " + e);
      long least = r.name.contains("netty") && !r.name.contains("arrow") ? 256 << 10 : ALLOCATION;
      assertTrue(e.getLong(STORAGE_BYTES) >= least, "the slice pins its allocation: " + e);
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(CHARGED_BYTES) >= least, "charged its allocation: " + e);
      }
    }
  }

  /**
   * Every sample cached as a copy: every second-epoch sample a hit, each admission materialized and
   * charged its copy (at least the bytes it addresses, far under the row group its original pins),
   * each admitted copy released once, on {@code tier}, within {@code bound}.
   */
  private static void assertCopied(ChildJvm.Result r, String tier, long bound, long pinned)
      throws Exception {
    assertEquals("400", r.value("hits"), "every second-epoch sample a hit: " + r);
    assertEquals("400", r.value("puts"), r.toString());
    Map<String, Long> s = ExportersIT.summaries(r.recording, "samples");
    assertEquals(400, s.get(ADMISSIONS), "" + s);
    assertEquals(0, s.get(DECLINES), "" + s);
    assertEquals(s.get(ADMISSIONS), s.get(RELEASES), "each admitted copy evicted: " + s);
    assertEquals(s.get(ADMITTED_BYTES), s.get(RELEASED_BYTES), "each byte released once: " + s);
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(400, decisions.size(), "one event per decision");
    for (RecordedEvent e : decisions) {
      assertEquals(tier, e.getString(TIER), e.toString());
      assertEquals(Decision.ADMIT_MATERIALIZED.name(), e.getString(DECISION), e.toString());
      assertTrue(e.getLong(BUDGET_BYTES) <= bound, "a budget past the library's bound: " + e);
      assertTrue(e.getLong(STORAGE_BYTES) >= pinned, "the original pins its group: " + e);
      long charged = e.getLong(CHARGED_BYTES);
      assertTrue(
          charged >= e.getLong(LOGICAL_BYTES) && charged <= 2048,
          "charged its copy, 1 KiB (and Arrow's validity) as its allocator rounds it: " + e);
    }
  }

  /**
   * A child running the Arrow loader on Arrow {@code version}; with {@code views} (copy or keep)
   * under the agent, recording every decision.
   */
  private static ChildJvm arrow(String name, int version, String views) throws Exception {
    ChildJvm c = ChildJvm.on(name, Jdk.JDK17).jvm(OPENS).classPath(arrowClassPath(version));
    return underAgent(c, name, "ArrowLoader", views);
  }

  /** A child running the Netty loader (Netty 4.2, Arrow 19's), the same. */
  private static ChildJvm netty(String name, String views) throws Exception {
    ChildJvm c = ChildJvm.on(name, Jdk.JDK17).classPath(arrowClassPath(19));
    return underAgent(c, name, "NettyLoader", views);
  }

  /**
   * Returns {@code c} with the agent on {@code loader}'s site, its views {@code views} (null:
   * none).
   */
  private static ChildJvm underAgent(ChildJvm c, String name, String loader, String views)
      throws Exception {
    if (views == null) {
      return c;
    }
    String site = sites(loader) + "site.samples.views = " + views + "\n";
    return c.agent("sites=" + Sites.write(name, site)).record();
  }

  private static Path[] arrowClassPath(int version) throws Exception {
    List<Path> cp = new ArrayList<>();
    cp.add(APP.resolve("classes"));
    if (version == 19) {
      for (String p : Files.readString(APP.resolve("classpath.txt")).trim().split(":")) {
        cp.add(Path.of(p));
      }
    } else {
      try (var jars = Files.list(APP.resolve("libs/arrow-older"))) {
        jars.sorted().forEach(cp::add);
      }
    }
    return cp.toArray(new Path[0]);
  }
}
