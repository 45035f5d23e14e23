package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.share.HostShareRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The JSR-107 TCK ({@code javax.cache:cache-tests} 1.1.1, unchanged, less its annotation tests)
 * against two real providers, Caffeine's {@code jcache} 3.2.4 and Ehcache 3.10.8, each run four
 * ways side by side: without the agent, under {@code presets=jcache} in {@code mode=observe},
 * enforcing with a roomy budget, and enforcing with a budget that declines every value. The first
 * three have the same outcome for every test. Under declines, every test whose outcome differs is
 * listed in {@code jcache-tck/declined-differences.txt} with the reason it follows from the rule a
 * declined call answers by (as if its value had been stored and evicted at once); among the tests
 * that pass, the ones on the library's own checks of a declined call's arguments and state (null
 * keys and values, a closed cache) and on its return values, and every writer and listener test: a
 * cache with a write-through writer or entry listeners is not declined, and is named.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class JCacheTckIT {
  private static final Path TCK =
      Path.of(System.getProperty("flodl.it.tck", "../test-apps/jcache-tck/target"));

  /** What the unwrap tests unwrap to, per provider (the TCK reads them from system properties). */
  private static final Map<String, String[]> UNWRAP =
      Map.of(
          "caffeine",
          new String[] {
            "-Djavax.cache.Cache=com.github.benmanes.caffeine.jcache.CacheProxy",
            "-Djavax.cache.Cache.Entry=com.github.benmanes.caffeine.jcache.EntryProxy",
            "-Djavax.cache.CacheManager=com.github.benmanes.caffeine.jcache.CacheManagerImpl"
          },
          "ehcache",
          new String[] {
            "-Djavax.cache.Cache=org.ehcache.Cache",
            "-Djavax.cache.Cache.Entry=org.ehcache.Cache$Entry",
            "-Djavax.cache.CacheManager=org.ehcache.CacheManager"
          });

  /** The agent's arguments of each way a run is made (null: without the agent). */
  private static final Map<String, String> WAYS = new LinkedHashMap<>();

  static {
    WAYS.put("none", null);
    WAYS.put("observe", "presets=jcache,mode=observe");
    WAYS.put("roomy", "presets=jcache");
    WAYS.put("declining", "presets=jcache,heap_max_usage=1e-9"); // a budget of 2 bytes at -Xmx2g
  }

  /** Tests that must pass under declines, as they do without the agent (issue 42). */
  private static final List<String> MUST_PASS =
      List.of(
          "org.jsr107.tck.PutTest#put_NullKey",
          "org.jsr107.tck.PutTest#put_NullValue",
          "org.jsr107.tck.PutTest#put_Closed",
          "org.jsr107.tck.PutTest#getAndPut_NullKey",
          "org.jsr107.tck.PutTest#getAndPut_NullValue",
          "org.jsr107.tck.PutTest#getAndPut_Closed",
          "org.jsr107.tck.PutTest#putIfAbsent_NullKey",
          "org.jsr107.tck.PutTest#putIfAbsent_NullValue",
          "org.jsr107.tck.PutTest#putIfAbsent_Closed",
          "org.jsr107.tck.PutTest#putAll_NullKey",
          "org.jsr107.tck.PutTest#putAll_NullValue",
          "org.jsr107.tck.PutTest#putAll_Closed",
          "org.jsr107.tck.PutTest#putAll_Null");

  @Test
  void theTckHasTheSameOutcomesUnderTheAgentSaveWhatADeclineExplains() throws Exception {
    Map<String, String> listed = listedDifferences();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    Map<String, Future<ChildJvm.Result>> runs = new LinkedHashMap<>();
    try {
      for (String provider : UNWRAP.keySet()) {
        for (Map.Entry<String, String> way : WAYS.entrySet()) {
          String name = "tck-" + provider + "-" + way.getKey();
          ChildJvm c =
              ChildJvm.on(name, Jdk.JDK17)
                  .jvm("-Xmx2g")
                  .jvm(UNWRAP.get(provider))
                  .classPath(classPath(provider))
                  .timeout(600);
          if (way.getValue() != null) {
            // A host-share registry of its own: the agent's one line about a bad entry another
            // process left in the shared one is not this test's to hear.
            Path registry = Files.createDirectories(ChildJvm.WORK.resolve(name + "-registry"));
            c.jvm("-D" + HostShareRegistry.ROOT_PROPERTY + "=" + registry.toAbsolutePath());
            c.agent(way.getValue());
          }
          if (way.getKey().equals("declining")) {
            c.record();
          }
          runs.put(provider + " " + way.getKey(), pool.submit(() -> c.run("com.acme.tck.TckMain")));
        }
      }
      List<String> problems = new ArrayList<>();
      for (String provider : UNWRAP.keySet()) {
        ChildJvm.Result bare = runs.get(provider + " none").get();
        Map<String, String> without = outcomes(bare);
        assertTrue(
            without.size() >= 470, provider + ": the TCK ran " + without.size() + ": " + bare);
        for (String way : List.of("observe", "roomy", "declining")) {
          ChildJvm.Result r = runs.get(provider + " " + way).get();
          Map<String, String> with = outcomes(r);
          assertEquals(
              without.keySet(), with.keySet(), provider + " " + way + ": the same tests ran");
          // Under declines the agent names each cache it does not decline (a writer or
          // listeners would learn of a decline); it says nothing else, in any way.
          List<String> warned =
              r.stderr
                  .lines()
                  .filter(l -> l.startsWith("flodl-budget:"))
                  .filter(
                      l -> !way.equals("declining") || !l.contains("so the cache is not declined"))
                  .toList();
          assertEquals(
              List.of(), warned, provider + " " + way + ": the agent warned (a decline failed?)");
          if (way.equals("declining")) {
            assertTrue(
                r.stderr.contains("writes through to a CacheWriter")
                    && r.stderr.contains("entry listener"),
                provider + ": write-through and listening caches named: " + r.stderr);
          }
          for (Map.Entry<String, String> t : without.entrySet()) {
            String now = with.get(t.getKey());
            if (now.equals(t.getValue())) {
              continue;
            }
            if (way.equals("declining") && listed.containsKey(t.getKey())) {
              continue; // a difference the decline rule explains (listed with its reason)
            }
            problems.add(
                provider + " " + way + ": " + t.getKey() + " " + t.getValue() + " -> " + now);
          }
          if (way.equals("declining")) {
            for (String t : MUST_PASS) {
              assertEquals("PASS", without.get(t), provider + ": " + t + " without the agent");
              assertEquals("PASS", with.get(t), provider + ": " + t + " under declines: " + r);
            }
            assertTrue(
                r.stdout.contains("TCK FAIL")
                    && ExportersIT.summaries(r.recording, "jcache").getOrDefault("declines", 0L)
                        > 0,
                provider + ": the budget declined nothing: " + r);
          }
        }
      }
      assertEquals(List.of(), problems, "differences no reason explains");
    } finally {
      pool.shutdownNow();
    }
  }

  private static Path[] classPath(String provider) throws IOException {
    List<Path> cp = new ArrayList<>();
    cp.add(TCK.resolve("classes"));
    for (String p : Files.readString(TCK.resolve("classpath.txt")).trim().split(":")) {
      cp.add(Path.of(p));
    }
    try (var jars = Files.list(TCK.resolve("providers").resolve(provider))) {
      jars.sorted().forEach(cp::add);
    }
    return cp.toArray(new Path[0]);
  }

  /** Each test's outcome (PASS, FAIL or SKIP) as the runner printed it. */
  private static Map<String, String> outcomes(ChildJvm.Result r) {
    assertTrue(r.stdout.contains("TCK DONE"), "the TCK did not finish: " + r);
    Map<String, String> out = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^TCK (PASS|FAIL|SKIP) (\\S+)").matcher(r.stdout);
    while (m.find()) {
      out.put(m.group(2), m.group(1));
    }
    return out;
  }

  /** The listed differences under declines: test to reason. */
  static Map<String, String> listedDifferences() throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (InputStream in =
        JCacheTckIT.class.getResourceAsStream("/jcache-tck/declined-differences.txt")) {
      String reason = null;
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String l = line.trim();
        if (l.isEmpty() || l.startsWith("#")) {
          continue;
        }
        if (l.startsWith("[")) {
          reason = l.substring(1, l.indexOf(']'));
        } else {
          assertTrue(reason != null, "a test listed before any reason: " + l);
          out.put(l, reason);
        }
      }
    }
    return out;
  }
}
