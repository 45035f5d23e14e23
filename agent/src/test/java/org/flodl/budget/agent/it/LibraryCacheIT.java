package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.BUDGET_BYTES;
import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The agent on the caches people use, as a new user would set it up: each {@link CacheLibrary}
 * (Caffeine, Guava, Ehcache 3, JCache with Ehcache's JSR-107 provider, and Commons Collections'
 * LRUMap, the library a test adds), each an unbounded cache of 1 MiB samples that dies of
 * OutOfMemoryError at -Xmx128m without the agent. With sites written against each library's public
 * interface, and with {@code presets=...} (on the current and one older release), the run
 * completes: every sample delivered with the checksum of a big-heap run without the agent, declines
 * recorded, no admission over budget, nothing broken on stderr. Loading calls ({@code get(key,
 * loader)}, a loading cache's {@code get}) likewise with {@code value = return}; and a declined
 * {@code put(k, v2)} over {@code k -> v1} never leaves {@code v1} behind.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class LibraryCacheIT {
  static final Path LIBS = Path.of(System.getProperty("flodl.it.libs", "target/libs"));
  private static final String APP = "com.acme.libs.LibraryTrain";
  private static final Map<String, String> REFERENCE = new ConcurrentHashMap<>();

  /** The sites file a user writes from docs/CONFIGURATION.md, against the public interface. */
  static String interfaceSites(CacheLibrary lib, boolean loading) {
    String decline = lib.api + "#" + lib.remove + "(java.lang.Object)";
    if (loading) {
      return "site.loaded.kind = cache-admit\n"
          + "site.loaded.method = "
          + lib.api
          + "#"
          + lib.loadingCall
          + "\n"
          + "site.loaded.value = return\n"
          + "site.loaded.decline = "
          + decline
          + "\n";
    }
    return "site.samples.kind = cache-admit\n"
        + "site.samples.method = "
        + lib.api
        + "#put(java.lang.Object,java.lang.Object)\n"
        + "site.samples.value = 1\n"
        + "site.samples.decline = "
        + decline
        + "\n";
  }

  private static ChildJvm child(String name, CacheLibrary lib, String version) throws IOException {
    Path jars = lib.jars(LIBS, version);
    assertTrue(Files.isDirectory(jars), "missing " + jars + " (dependency:copy library-jars)");
    ChildJvm c = ChildJvm.on(name, Jdk.JDK17).withJarsOf(jars).timeout(120);
    return lib.support == null ? c : c.withClassPath(lib.support);
  }

  private static String[] app(CacheLibrary lib, String... more) {
    List<String> args = new ArrayList<>(List.of("--cache=" + lib.appCache));
    args.addAll(List.of(more));
    return args.toArray(new String[0]);
  }

  /** The loading styles the preset bounds, each with its release: {@code (lib, style, version)}. */
  static Stream<Arguments> presetLoads() {
    List<Arguments> out = new ArrayList<>();
    for (CacheLibrary lib : CacheLibrary.values()) {
      for (String load : lib.presetLoads) {
        String[] sv = load.split(":");
        out.add(Arguments.of(lib, sv[0], sv[1]));
      }
    }
    return out.stream();
  }

  /** The libraries with a loading call on their public interface. */
  static Stream<CacheLibrary> withLoadingCalls() {
    return Stream.of(CacheLibrary.values()).filter(l -> l.loadingCall != null);
  }

  /** Every library on every release it is tested on. */
  static Stream<Arguments> releases() {
    List<Arguments> out = new ArrayList<>();
    for (CacheLibrary lib : CacheLibrary.values()) {
      for (String v : CacheLibrary.VERSIONS) {
        out.add(Arguments.of(lib, v));
      }
    }
    return out.stream();
  }

  /**
   * Returns the checksum of a run without the agent and heap enough for every sample: every library
   * trains on the same samples in the same order, so one run a style serves them all.
   */
  private static String reference(CacheLibrary lib, String style) throws Exception {
    String key = style;
    String known = REFERENCE.get(key);
    if (known != null) {
      return known;
    }
    ChildJvm.Result big =
        child("lib-reference-" + lib.preset + "-" + style, lib, "current")
            .jvm("-Xmx700m")
            .run(APP, app(lib, "--style=" + style));
    assertEquals(0, big.exitCode, big.toString());
    REFERENCE.put(key, big.value("CHECKSUM"));
    return big.value("CHECKSUM");
  }

  /** The promises of a bounded run: completed, everything delivered, declines, none over budget. */
  private static void assertBounded(ChildJvm.Result r, CacheLibrary lib, String style, String site)
      throws Exception {
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("400", r.value("DELIVERED"), r.toString());
    assertEquals(reference(lib, style), r.value("CHECKSUM"), "trained on the same samples");
    for (String broken :
        List.of(
            "ASSERTION FAILED",
            "StackOverflowError",
            "gate failed",
            "OutOfMemoryError",
            "Exception")) {
      assertFalse(r.stderr.contains(broken), broken + ": " + r);
    }
    List<RecordedEvent> decisions = r.events(CacheAdmissionEvent.NAME);
    assertFalse(decisions.isEmpty(), r.toString());
    long declines =
        decisions.stream()
            .filter(e -> e.getString(DECISION).equals(Decision.DECLINE.name()))
            .count();
    long admits =
        decisions.stream()
            .filter(e -> e.getString(DECISION).startsWith(Decision.ADMIT.name()))
            .count();
    assertTrue(declines > 0 && admits > 0, admits + " admitted, " + declines + " declined: " + r);
    for (RecordedEvent e : decisions) {
      assertEquals(site, e.getString(SITE), e.toString());
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertTrue(e.getLong(HELD_BYTES) <= e.getLong(BUDGET_BYTES), "over budget: " + e);
      }
    }
    long cached = Long.parseLong(r.value("CACHED"));
    assertTrue(
        cached <= admits,
        "the cache keeps no declined sample: " + cached + " cached, " + admits + " admitted");
  }

  @ParameterizedTest
  @EnumSource(CacheLibrary.class)
  void withoutTheAgentEachUnboundedCacheDiesOfOutOfMemoryError(CacheLibrary lib) throws Exception {
    ChildJvm.Result bare =
        child("lib-bare-" + lib.preset, lib, "current").jvm("-Xmx128m").run(APP, app(lib));
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
  }

  @ParameterizedTest
  @EnumSource(CacheLibrary.class)
  void sitesOnThePublicInterfaceBoundTheCacheAndADeclinedPutLeavesNoOlderValue(CacheLibrary lib)
      throws Exception {
    Path sites = Sites.write("lib-" + lib.preset, interfaceSites(lib, false));
    ChildJvm.Result r =
        child("lib-interface-" + lib.preset, lib, "current")
            .jvm("-Xmx128m", "-Xverify:all")
            .agent("sites=" + sites)
            .record()
            .run(APP, app(lib, "--overwrite"));
    assertBounded(r, lib, "put", "samples");
    assertNotEquals("v1", r.value("OVERWRITE"), "get(k) after a declined put(k, v2): " + r);
  }

  @ParameterizedTest
  @MethodSource("releases")
  void presetsBoundTheCacheOnTheCurrentAndAnOlderRelease(CacheLibrary lib, String version)
      throws Exception {
    ChildJvm.Result r =
        child("lib-preset-" + lib.preset + "-" + version, lib, version)
            .jvm("-Xmx128m", "-Xverify:all")
            .agent("presets=" + lib.preset)
            .record()
            .run(APP, app(lib, "--overwrite"));
    assertBounded(r, lib, "put", lib.preset);
    assertNotEquals("v1", r.value("OVERWRITE"), "get(k) after a declined put(k, v2): " + r);
    assertTrue(
        r.events(InstrumentedEvent.NAME).stream()
            .anyMatch(
                e -> e.getString(OUTCOME).equals("WOVEN") && e.getString(SITE).equals(lib.preset)),
        "woven in the library itself");
  }

  @ParameterizedTest
  @MethodSource("withLoadingCalls")
  void loadingCallsOnThePublicInterfaceAreBoundedWithValueReturn(CacheLibrary lib)
      throws Exception {
    ChildJvm.Result r =
        child("lib-loading-" + lib.preset + "-interface", lib, "current")
            .jvm("-Xmx128m", "-Xverify:all")
            .record()
            .agent("sites=" + Sites.write("lib-loading-" + lib.preset, interfaceSites(lib, true)))
            .run(APP, app(lib, "--style=get"));
    assertBounded(r, lib, "get", "loaded");
  }

  @ParameterizedTest
  @MethodSource("presetLoads")
  void presetsBoundTheLoadingCalls(CacheLibrary lib, String style, String version)
      throws Exception {
    ChildJvm.Result r =
        child("lib-loading-" + lib.preset + "-" + version + "-" + style, lib, version)
            .jvm("-Xmx128m", "-Xverify:all")
            .record()
            .agent("presets=" + lib.preset)
            .run(APP, app(lib, "--style=" + style));
    assertBounded(r, lib, style, lib.preset);
  }

  @org.junit.jupiter.api.Test
  void aBrokenOrImpostorLibrarySupportIsLeftOutWithOneLineAndTheRestRunsOn() throws Exception {
    // The application's class path names a support that does not exist and one that takes the
    // name of the agent's own Caffeine support: both left out, each said once, the preset works.
    CacheLibrary lib = CacheLibrary.CAFFEINE;
    ChildJvm.Result r =
        child("lib-broken-supports", lib, "current")
            .withClassPath(Path.of("src/test/libraries/broken"))
            .jvm("-Xmx128m")
            .agent("presets=" + lib.preset)
            .record()
            .run(APP, app(lib, "--overwrite"));
    assertBounded(r, lib, "put", lib.preset);
    long loadLines =
        r.stderr
            .lines()
            .filter(
                l ->
                    l.startsWith(
                            "flodl-budget: a library support " + "cannot be loaded and is left out")
                        && l.contains("com.acme.libs.NoSuchSupport"))
            .count();
    long impostorLines =
        r.stderr
            .lines()
            .filter(
                l ->
                    l.startsWith(
                        "flodl-budget: library support "
                            + "com.acme.libs.ImpostorSupport is left out: 'caffeine' is already"))
            .count();
    assertEquals(1, loadLines, r.toString());
    assertEquals(1, impostorLines, r.toString());
  }
}
