package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cache that keeps a copy: {@code com.acme.libs.JCacheLoop} trains through a JCache cache made
 * with the specification's default configuration (store by value), on Caffeine's and on Ehcache's
 * provider, 600 samples of 1 MiB over two epochs at -Xmx512m. Without the agent it dies; under
 * {@code presets=jcache} it completes with the checksum of a roomy run, store by value and by
 * reference, one decision for each put, no admission over the heap budget, no thread left that
 * keeps the JVM alive after {@code main}, and the charges held by the cache's entries: after {@code
 * clear()}, {@code removeAll()}, {@code close()}, the manager's {@code destroyCache} or {@code
 * close()}, or every entry's expiry, the site holds nothing again.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class JCacheCopiesIT {
  private static final String APP = "com.acme.libs.JCacheLoop";

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "caffeine-jcache, --by-value",
    "caffeine-jcache, --by-reference",
    "ehcache-current, --by-value",
    "ehcache-current, --by-reference"
  })
  void theDefaultConfigurationsLoopCompletesWithinTheBudget(String jars, String store)
      throws Exception {
    Path folder = LibraryCacheIT.LIBS.resolve(jars);
    String[] args = store.equals("--by-value") ? new String[0] : new String[] {store};
    String name = jars + store;
    ChildJvm.Result bare =
        ChildJvm.on("copies-bare-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx512m")
            .timeout(180)
            .run(APP, args);
    assertNotEquals(0, bare.exitCode, "without the agent the cache outgrows the heap: " + bare);
    assertTrue(bare.stderr.contains("OutOfMemoryError"), bare.toString());
    ChildJvm.Result roomy =
        ChildJvm.on("copies-roomy-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx2g")
            .timeout(180)
            .run(APP, args);
    assertEquals(0, roomy.exitCode, roomy.toString());
    ChildJvm.Result r =
        ChildJvm.on("copies-" + name, Jdk.JDK17)
            .withJarsOf(folder)
            .jvm("-Xmx512m")
            .agent("presets=jcache")
            .record()
            .timeout(180)
            .run(APP, args);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(roomy.value("CHECKSUM"), r.value("CHECKSUM"), "every sample trained on: " + r);
    long decisions = 0;
    long declines = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals("jcache")) {
        decisions += e.getLong("admissions") + e.getLong("declines");
        declines += e.getLong("declines");
      }
    }
    assertEquals(Long.parseLong(r.value("PUTS")), decisions, "one decision a put: " + r);
    assertTrue(declines > 0, "the budget declined some: " + r);
    for (RecordedEvent e : r.events(CacheAdmissionEvent.NAME)) {
      if (e.getString("decision").startsWith("ADMIT")) {
        assertTrue(
            e.getLong("heldBytes") <= e.getLong("budgetBytes"), "held within the budget: " + e);
      }
    }
    assertTrue(r.stderr.lines().noneMatch(l -> l.startsWith("flodl-budget:")), r.stderr);
    assertEquals(
        roomy.value("THREADS"),
        r.value("THREADS"),
        "the agent's subscription leaves no thread that keeps the JVM alive after main: " + r);
  }

  @ParameterizedTest(name = "{0}, {1}")
  @CsvSource({
    "caffeine-jcache, clear",
    "caffeine-jcache, removeAll",
    "caffeine-jcache, close",
    "caffeine-jcache, destroy",
    "caffeine-jcache, close-manager",
    "caffeine-jcache, expire",
    "ehcache-current, clear",
    "ehcache-current, removeAll",
    "ehcache-current, close",
    "ehcache-current, destroy",
    "ehcache-current, close-manager",
    "ehcache-current, expire"
  })
  void whenTheCacheLetsItsEntriesGoTheirChargesComeBack(String jars, String end) throws Exception {
    ChildJvm.Result r =
        ChildJvm.on("copies-" + jars + "-" + end, Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve(jars))
            .jvm("-Xmx512m")
            .agent("presets=jcache")
            .timeout(180)
            .run(
                APP,
                "--samples=200",
                "--end=" + end,
                end.equals("expire") ? "--expiry" : "--epochs=2");
    assertEquals(0, r.exitCode, r.toString());
    Matcher m = Pattern.compile("HELD_LOOP=(\\d+) HELD_END=(\\d+)").matcher(r.stdout);
    assertTrue(m.find(), r.toString());
    assertTrue(Long.parseLong(m.group(1)) >= 32L << 20, "the loop's entries held: " + r);
    assertEquals(0, Long.parseLong(m.group(2)), "every charge back after " + end + ": " + r);
  }

  /**
   * The listener the agent adds to follow a JCache cache's copies is its own: under {@code
   * presets=jcache:ehcache} the Ehcache cache under that JCache cache is declined as under {@code
   * presets=ehcache} alone, not kept for a witness that tells only the agent.
   */
  @Test
  void theAgentsOwnListenerIsNoWitnessOfTheEhcacheCacheUnderAJCacheOne() throws Exception {
    String app = "com.acme.libs.EhcacheUnderJCache";
    Path folder = LibraryCacheIT.LIBS.resolve("ehcache-current");
    ChildJvm.Result alone =
        ChildJvm.on("copies-own-listener-ehcache", Jdk.JDK17)
            .withJarsOf(folder)
            .agent("presets=ehcache,heap_max_usage=1e-7")
            .timeout(120)
            .run(app);
    assertEquals(0, alone.exitCode, alone.toString());
    assertEquals("0", alone.value("KEPT"), "a budget that declines every value: " + alone);
    ChildJvm.Result both =
        ChildJvm.on("copies-own-listener-both", Jdk.JDK17)
            .withJarsOf(folder)
            .agent("presets=jcache:ehcache,heap_max_usage=1e-7")
            .record()
            .timeout(120)
            .run(app);
    assertEquals(0, both.exitCode, both.toString());
    assertEquals(
        alone.value("KEPT"), both.value("KEPT"), "declined as without the follower: " + both);
    assertTrue(both.stderr.lines().noneMatch(l -> l.contains("not declined")), both.stderr);
    long declines = 0;
    for (RecordedEvent e : both.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals("ehcache")) {
        declines += e.getLong("declines");
      }
    }
    assertEquals(20, declines, "every Ehcache put declined: " + both);
  }
}
