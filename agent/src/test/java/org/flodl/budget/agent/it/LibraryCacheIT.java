package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent on the caches people use, as a new user would set it up: Caffeine, Guava, Ehcache 3
 * and JCache (Ehcache's JSR-107 provider), each an unbounded cache of 1 MiB samples that dies of
 * OutOfMemoryError at -Xmx128m without the agent. With sites written against each library's
 * public interface, and with {@code presets=...} (on the current and one older release), the
 * run completes: every sample delivered with the checksum of a big-heap run without the agent,
 * declines recorded, no admission over budget, nothing broken on stderr. Loading calls ({@code
 * get(key, loader)}, a loading cache's {@code get}) likewise with {@code value = return}; and a
 * declined {@code put(k, v2)} over {@code k -> v1} never leaves {@code v1} behind.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class LibraryCacheIT {
  static final Path LIBS = Path.of(System.getProperty("flodl.it.libs", "target/libs"));
  private static final String APP = "com.acme.libs.LibraryTrain";
  private static final Map<String, String> REFERENCE = new ConcurrentHashMap<>();

  /** The sites file a user writes from docs/CONFIGURATION.md, against the public interface. */
  static String interfaceSites(String lib, boolean loading) {
    String[] api = switch (lib) {
      case "caffeine" -> new String[] {"com.github.benmanes.caffeine.cache.Cache", "invalidate",
          "get(java.lang.Object,java.util.function.Function)"};
      case "guava" -> new String[] {"com.google.common.cache.Cache", "invalidate",
          "get(java.lang.Object,java.util.concurrent.Callable)"};
      case "ehcache" -> new String[] {"org.ehcache.Cache", "remove", null};
      default -> new String[] {"javax.cache.Cache", "remove", null};
    };
    String decline = api[0] + "#" + api[1] + "(java.lang.Object)";
    if (loading) {
      return "site.loaded.kind = cache-admit\n"
          + "site.loaded.method = " + api[0] + "#" + api[2] + "\n"
          + "site.loaded.value = return\n"
          + "site.loaded.decline = " + decline + "\n";
    }
    return "site.samples.kind = cache-admit\n"
        + "site.samples.method = " + api[0] + "#put(java.lang.Object,java.lang.Object)\n"
        + "site.samples.value = 1\n"
        + "site.samples.decline = " + decline + "\n";
  }

  private static ChildJvm child(String name, String lib, String version) throws IOException {
    Path jars = LIBS.resolve(lib.equals("jcache") ? "ehcache-" + version : lib + "-" + version);
    assertTrue(Files.isDirectory(jars), "missing " + jars + " (dependency:copy library-jars)");
    return ChildJvm.on(name, Jdk.JDK17).withJarsOf(jars).timeout(120);
  }

  /** Returns the checksum of a run without the agent and heap enough for every sample. */
  private static String reference(String lib, String style) throws Exception {
    String key = lib + "/" + style;
    String known = REFERENCE.get(key);
    if (known != null) {
      return known;
    }
    ChildJvm.Result big = child("lib-reference-" + lib + "-" + style, lib, "current")
        .jvm("-Xmx700m").run(APP, "--lib=" + lib, "--style=" + style);
    assertEquals(0, big.exitCode, big.toString());
    REFERENCE.put(key, big.value("CHECKSUM"));
    return big.value("CHECKSUM");
  }

  /** The promises of a bounded run: completed, everything delivered, declines, none over budget. */
  private static void assertBounded(ChildJvm.Result r, String lib, String style, String site)
      throws Exception {
    assertEquals(0, r.exitCode, r.toString());
    assertEquals("400", r.value("DELIVERED"), r.toString());
    assertEquals(reference(lib, style), r.value("CHECKSUM"), "trained on the same samples");
    for (String broken : List.of("ASSERTION FAILED", "StackOverflowError", "gate failed",
        "OutOfMemoryError", "Exception")) {
      assertFalse(r.stderr.contains(broken), broken + ": " + r);
    }
    List<RecordedEvent> decisions = r.events("flodl.budget.CacheAdmission");
    assertFalse(decisions.isEmpty(), r.toString());
    long declines = decisions.stream().filter(e -> e.getString("decision").equals("DECLINE"))
        .count();
    long admits = decisions.stream().filter(e -> e.getString("decision").startsWith("ADMIT"))
        .count();
    assertTrue(declines > 0 && admits > 0, admits + " admitted, " + declines + " declined: " + r);
    for (RecordedEvent e : decisions) {
      assertEquals(site, e.getString("site"), e.toString());
      if (e.getString("decision").startsWith("ADMIT")) {
        assertTrue(e.getLong("heldBytes") <= e.getLong("budgetBytes"), "over budget: " + e);
      }
    }
    long cached = Long.parseLong(r.value("CACHED"));
    assertTrue(cached <= admits, "the cache keeps no declined sample: " + cached + " cached, "
        + admits + " admitted");
  }

  @ParameterizedTest
  @ValueSource(strings = {"caffeine", "guava", "ehcache", "jcache"})
  void withoutTheAgentEachUnboundedCacheDiesOfOutOfMemoryError(String lib) throws Exception {
    ChildJvm.Result bare = child("lib-bare-" + lib, lib, "current").jvm("-Xmx128m")
        .run(APP, "--lib=" + lib);
    assertNotEquals(0, bare.exitCode, bare.toString());
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"caffeine", "guava", "ehcache", "jcache"})
  void sitesOnThePublicInterfaceBoundTheCacheAndADeclinedPutLeavesNoOlderValue(String lib)
      throws Exception {
    Path sites = Sites.write("lib-" + lib, interfaceSites(lib, false));
    ChildJvm.Result r = child("lib-interface-" + lib, lib, "current")
        .jvm("-Xmx128m", "-Xverify:all").agent("sites=" + sites).record()
        .run(APP, "--lib=" + lib, "--overwrite");
    assertBounded(r, lib, "put", "samples");
    assertNotEquals("v1", r.value("OVERWRITE"), "get(k) after a declined put(k, v2): " + r);
  }

  @ParameterizedTest
  @CsvSource({"caffeine,current", "caffeine,older", "guava,current", "guava,older",
      "ehcache,current", "ehcache,older", "jcache,current", "jcache,older"})
  void presetsBoundTheCacheOnTheCurrentAndAnOlderRelease(String lib, String version)
      throws Exception {
    ChildJvm.Result r = child("lib-preset-" + lib + "-" + version, lib, version)
        .jvm("-Xmx128m", "-Xverify:all").agent("presets=" + lib).record()
        .run(APP, "--lib=" + lib, "--overwrite");
    assertBounded(r, lib, "put", lib);
    assertNotEquals("v1", r.value("OVERWRITE"), "get(k) after a declined put(k, v2): " + r);
    assertTrue(r.events("flodl.agent.Instrumented").stream().anyMatch(e -> e.getString("outcome")
        .equals("WOVEN") && e.getString("site").equals(lib)), "woven in the library itself");
  }

  @ParameterizedTest
  @CsvSource({"caffeine,current,get,interface", "guava,current,get,interface",
      "caffeine,current,get,preset", "caffeine,older,loading,preset",
      "guava,current,loading,preset", "guava,older,get,preset"})
  void loadingCallsAreBoundedWithValueReturn(String lib, String version, String style,
      String how) throws Exception {
    ChildJvm c = child("lib-loading-" + lib + "-" + version + "-" + style + "-" + how, lib,
        version).jvm("-Xmx128m", "-Xverify:all").record();
    if (how.equals("preset")) {
      c.agent("presets=" + lib);
    } else {
      c.agent("sites=" + Sites.write("lib-loading-" + lib, interfaceSites(lib, true)));
    }
    ChildJvm.Result r = c.run(APP, "--lib=" + lib, "--style=" + style);
    assertBounded(r, lib, style, how.equals("preset") ? lib : "loaded");
  }
}
