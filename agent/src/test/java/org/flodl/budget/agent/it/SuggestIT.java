package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar flodl-budget-agent.jar suggest} (issue 14) on programs that are not its unit
 * tests' fixtures: the file it prints, used as it is, turns the hand-written loader's and the
 * custom-loader app's {@code OutOfMemoryError} at a small heap into completed runs with every
 * sample delivered and each epoch's queue at the depth the policy decided; on the DJL app it gives
 * the {@code djl} preset, whose depth follows the policy. On libraries (the agent's own jar, DJL's
 * jars) it finishes in seconds and suggests no site inside them.
 */
class SuggestIT {
  private static final Path LOADER_APP =
      Path.of(
          System.getProperty(
              "flodl.it.loaderApp",
              "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar"));

  /** What one suggest run printed, and how long it took. */
  private record Suggested(int exit, String out, String err, long millis) {
    List<String> siteLines() {
      return out.lines().filter(l -> l.startsWith("site.")).toList();
    }

    /** Returns the output with comments unwrapped and keys' padding gone, to search in. */
    String flat() {
      return out.replaceAll("\\s*\\n#\\s+", " ").replaceAll(" +=", " =");
    }
  }

  private static Suggested suggest(String... args) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Jdk.JDK17.java().toString(),
                "-jar",
                ChildJvm.AGENT_JAR.toAbsolutePath().toString(),
                "suggest"));
    cmd.addAll(List.of(args));
    Files.createDirectories(ChildJvm.WORK);
    Path err = ChildJvm.WORK.resolve("suggest.err");
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "suggest ran past 120 s");
    long millis = (System.nanoTime() - t0) / 1_000_000;
    return new Suggested(p.exitValue(), out, Files.readString(err), millis);
  }

  private static Path write(String name, Suggested s) throws IOException {
    assertEquals(0, s.exit, s.err);
    Path f = ChildJvm.WORK.resolve(name + ".properties").toAbsolutePath();
    Files.writeString(f, s.out);
    return f;
  }

  @Test
  void theHandWrittenLoadersOutOfMemoryErrorBecomesACompletedRun() throws Exception {
    Suggested s =
        suggest(
            "--check",
            "--package",
            "com.acme.loader",
            ChildJvm.APP_CLASSES.toAbsolutePath().toString());
    assertTrue(
        s.flat().contains("site.dataset-cache.in = com.acme.loader.Dataset#get(int)"), s.out);
    assertTrue(
        s.flat()
            .contains(
                "site.prefetchloader-queue.method = "
                    + "java.util.concurrent.ArrayBlockingQueue#<init>(int)"),
        s.out);
    assertEquals(2, s.err.lines().filter(l -> l.contains("would be woven")).count(), s.err);
    Path sites = write("suggested-hand", s);

    String app = "com.acme.loader.HandTrain";
    ChildJvm.Result bare = ChildJvm.on("suggest-hand-bare", Jdk.JDK17).jvm("-Xmx256m").run(app);
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
    ChildJvm.Result big = ChildJvm.on("suggest-hand-big", Jdk.JDK17).jvm("-Xmx900m").run(app);
    assertEquals(0, big.exitCode, big.toString());

    ChildJvm.Result r =
        ChildJvm.on("suggest-hand", Jdk.JDK17)
            .jvm("-Xmx256m")
            .agent("sites=" + sites)
            .record()
            .run(app);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("600", r.value("DELIVERED"), r.toString());
    assertEquals(big.value("CHECKSUM"), r.value("CHECKSUM"), "the same rows trained on");
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    assertTrue(
        decisions.stream().anyMatch(e -> e.getString(DECISION).equals(Decision.DECLINE.name())),
        "declines: " + decisions.size());
    for (RecordedEvent e : decisions) {
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), e.toString());
      }
    }
    assertDepthsFollowThePolicy(r, "prefetchloader-queue", 16, r.value("CAPACITIES"));
  }

  @Test
  void theCustomLoaderAppsOutOfMemoryErrorBecomesACompletedRun() throws Exception {
    Suggested s = suggest(LOADER_APP.toAbsolutePath().toString());
    assertTrue(s.flat().contains("site.samplecache-entries.kind = cache-admit"), s.out);
    assertTrue(s.flat().contains("site.prefetchingloader-queue.kind = prefetch-depth"), s.out);
    assertFalse(s.out.contains("rowgroupsource"), "an LRU that bounds itself is no site: " + s.out);
    Path sites = write("suggested-loader-app", s);
    String[] args = {
      "--sample-bytes=1M",
      "--samples=600",
      "--epochs=2",
      "--batch-size=4",
      "--depth=8",
      "--compute-iters=1000"
    };
    ChildJvm.Result bare =
        ChildJvm.on("suggest-loader-bare", Jdk.JDK17)
            .jvm("-Xmx256m")
            .classPath(LOADER_APP)
            .run("com.acme.train.TrainMain", args);
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(
        bare.stderr.contains("OutOfMemoryError") || bare.stdout.contains("OutOfMemory"),
        bare.toString());
    ChildJvm.Result r =
        ChildJvm.on("suggest-loader", Jdk.JDK17)
            .jvm("-Xmx256m")
            .agent("sites=" + sites)
            .record()
            .timeout(300)
            .classPath(LOADER_APP)
            .run("com.acme.train.TrainMain", args);
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(
        r.stdout.contains("TRAINING COMPLETE samples_delivered=1200")
            && r.stdout.contains("exactly_once=true"),
        r.toString());
    assertTrue(
        r.events(CacheAdmissionEvent.NAME).stream()
            .anyMatch(e -> e.getString(DECISION).equals(Decision.DECLINE.name())),
        "declines recorded");
    assertDepthsFollowThePolicy(r, "prefetchingloader-queue", 8, null);
  }

  /**
   * Each epoch's queue decision of {@code site} was recorded, is at most the {@code requested}
   * depth, and is what the application built ({@code capacities}, comma-separated, when it says).
   */
  private static void assertDepthsFollowThePolicy(
      ChildJvm.Result r, String site, int requested, String capacities) throws IOException {
    List<RecordedEvent> depths =
        r.events(PrefetchDepthEvent.NAME).stream()
            .filter(e -> e.getString(SITE).equals(site))
            .toList();
    assertFalse(depths.isEmpty(), "no depth decision of " + site + ": " + r);
    List<String> decided = new ArrayList<>();
    for (RecordedEvent e : depths) {
      assertEquals(requested, e.getLong(REQUESTED_DEPTH), e.toString());
      assertTrue(e.getLong(DEPTH) >= 1 && e.getLong(DEPTH) <= requested, e.toString());
      decided.add(Long.toString(e.getLong(DEPTH)));
    }
    if (capacities != null) {
      assertEquals(String.join(",", decided), capacities, "the queues as built");
    }
  }

  @Test
  void onTheDjlAppItGivesThePresetWhoseDepthFollowsThePolicy() throws Exception {
    Suggested s =
        suggest(
            AppJvm.DJL.dir.resolve("classes").toAbsolutePath().toString(), AppJvm.DJL.classPath());
    assertTrue(s.out.lines().anyMatch(l -> l.equals("presets = djl")), s.out);
    assertTrue(s.flat().contains("the application uses it in com.acme.djl."), s.out);
    assertEquals(List.of(), s.siteLines(), "no site inside DJL: " + s.out);
    Path sites = write("suggested-djl", s);
    // A ring budget of 7 KiB fits 3 of TrainDjl's 2176-byte batches: a request of 8 becomes 3.
    ChildJvm.Result r =
        AppJvm.DJL.run(
            "suggest-djl",
            "sites=" + sites + ",ram_probe=fixed:14K",
            DjlTrainIT.TRAIN,
            "--epochs=2",
            "--prefetch=8");
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("0", r.value("empty_epochs"), r.toString());
    List<RecordedEvent> depths = r.events(PrefetchDepthEvent.NAME);
    assertEquals(2, depths.size(), r.toString());
    for (RecordedEvent e : depths) {
      assertEquals("djl", e.getString(SITE));
      assertEquals(8, e.getLong(REQUESTED_DEPTH));
    }
    assertEquals(3, depths.get(1).getLong(DEPTH), depths.get(1).toString());
  }

  @Test
  void onLibrariesItFinishesAndSuggestsNoSiteInsideThem() throws Exception {
    Suggested own = suggest(ChildJvm.AGENT_JAR.toAbsolutePath().toString());
    Suggested djl = suggest(Files.readString(AppJvm.DJL.dir.resolve("classpath.txt")).trim());
    for (Suggested s : List.of(own, djl)) {
      assertEquals(0, s.exit, s.err);
      assertEquals(List.of(), s.siteLines(), s.out);
      // How long it takes is printed, not asserted (this machine may be loaded): a scan that never
      // ended would run into suggest()'s 120 s.
      System.out.println("suggest on a library: " + s.millis + " ms");
    }
    assertTrue(djl.out.lines().anyMatch(l -> l.equals("presets = djl")), djl.out);
    assertFalse(own.out.contains("presets ="), own.out);
  }

  /**
   * json-path 2.10.0 with its own package as the application: a map filled once in a static
   * initializer (its registry of evaluators) and the parts a constructor collects are no cache; its
   * LRU cache is, with its release.
   */
  @Test
  void aRegistryFilledOnceIsNoCacheAndTheLruCacheIsFoundWithItsRelease() throws Exception {
    Path jar;
    try (var jars = Files.list(LibraryCacheIT.LIBS.resolve("json-path"))) {
      jar = jars.filter(p -> p.toString().endsWith(".jar")).findFirst().orElseThrow();
    }
    Suggested s = suggest("--package", "com.jayway.jsonpath", jar.toAbsolutePath().toString());
    assertEquals(0, s.exit, s.err);
    List<String> in =
        s.siteLines().stream().filter(l -> l.matches("site\\.[^.]+\\.in .*")).toList();
    assertTrue(in.stream().noneMatch(l -> l.endsWith("#<clinit>()")), s.out);
    assertTrue(in.stream().noneMatch(l -> l.contains("#<init>(")), s.out);
    assertTrue(
        s.siteLines()
            .contains("site.lrucache-map.release = java.util.Map#remove(java.lang.Object)"),
        s.out);
    assertTrue(in.size() <= 3, in.size() + " sites: " + s.out);
  }
}
