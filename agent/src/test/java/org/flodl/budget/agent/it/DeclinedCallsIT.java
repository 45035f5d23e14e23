package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Calls the library answers with an exception after their value was admitted give its bytes back at
 * once: {@code com.acme.libs.ThrowingPuts} on Ehcache's JCache provider under {@code
 * presets=jcache}, a writer refusing every third key and every fifth key null, every sample kept
 * reachable by the app (so no collection can give anything back). The agent's MBeans, read by the
 * app right after each put, show each throwing put admitted and released at once, its tier's held
 * bytes where they were before it; the recording shows each as a {@code CALL_THREW} release.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class DeclinedCallsIT {
  private static final int PUTS = 30;

  record Put(
      int index, boolean threw, String exception, long held, long admissions, long releases) {}

  /**
   * Each library's own cache API under its preset, a budget declining every value: each declined
   * call answers as the same call without the agent (the library's exceptions for null keys and
   * values included), save the reads of the keys a declined call would have stored, which find
   * nothing (no older value served either).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"caffeine", "guava", "ehcache"})
  void aDeclinedCallAnswersAsTheLibraryWould(String lib) throws Exception {
    Path jars = LibraryCacheIT.LIBS.resolve(lib + "-current");
    ChildJvm.Result bare =
        ChildJvm.on("answers-bare-" + lib, Jdk.JDK17)
            .withJarsOf(jars)
            .timeout(120)
            .run("com.acme.libs.DeclineAnswers", "--lib=" + lib);
    ChildJvm.Result r =
        ChildJvm.on("answers-" + lib, Jdk.JDK17)
            .withJarsOf(jars)
            .jvm("-Xmx512m")
            .agent("presets=" + lib + ",mode=observe,heap_max_usage=1e-9")
            .record()
            .timeout(120)
            .run("com.acme.libs.DeclineAnswers", "--lib=" + lib, "--agent");
    Map<String, String> without = checks(bare);
    Map<String, String> with = checks(r);
    assertEquals(without.keySet(), with.keySet(), r.toString());
    assertEquals("threw:NullPointerException", without.get("put-null-key"), bare.toString());
    Map<String, String> differ = new TreeMap<>();
    for (Map.Entry<String, String> c : without.entrySet()) {
      if (!c.getValue().equals(with.get(c.getKey()))) {
        differ.put(c.getKey(), c.getValue() + " -> " + with.get(c.getKey()));
      }
    }
    Map<String, String> expected = new TreeMap<>();
    if (lib.equals("ehcache")) {
      expected.put("get-after-putIfAbsent-absent", "r1 -> null");
    } else {
      expected.put("get-after-declined-putAll", "m2 -> null");
    }
    expected.put("get-after-declined-put", "a2 -> null");
    assertEquals(expected, differ, r.toString());
    long declines = 0;
    for (RecordedEvent e : r.events(SiteSummaryEvent.NAME)) {
      if (e.getString("site").equals(lib)) {
        declines += e.getLong("declines") - e.getLong("wouldDeclines");
      }
    }
    assertTrue(declines >= 2, "the budget declined the calls after enforce: " + r);
    assertFalse(r.stderr.contains("flodl-budget:"), "no warning: " + r.stderr);
  }

  private static Map<String, String> checks(ChildJvm.Result r) {
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
    Map<String, String> out = new TreeMap<>();
    Matcher m = Pattern.compile("(?m)^CHECK (\\S+) (\\S+)$").matcher(r.stdout);
    while (m.find()) {
      out.put(m.group(1), m.group(2));
    }
    return out;
  }

  @Test
  void aPutThatThrowsGivesItsBytesBackAtOnce() throws Exception {
    ChildJvm.Result r =
        ChildJvm.on("throwing-puts", Jdk.JDK17)
            .withJarsOf(LibraryCacheIT.LIBS.resolve("ehcache-current"))
            .jvm("-Xmx512m")
            .agent("presets=jcache")
            .record()
            .timeout(120)
            .run("com.acme.libs.ThrowingPuts", "--puts=" + PUTS);
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
    List<Put> puts = new ArrayList<>();
    Matcher m =
        Pattern.compile(
                "(?m)^PUT (\\d+) (OK|THREW (\\S+)) HELD=(\\d+) ADMISSIONS=(\\d+) RELEASES=(\\d+)$")
            .matcher(r.stdout);
    while (m.find()) {
      puts.add(
          new Put(
              Integer.parseInt(m.group(1)),
              m.group(2).startsWith("THREW"),
              m.group(3),
              Long.parseLong(m.group(4)),
              Long.parseLong(m.group(5)),
              Long.parseLong(m.group(6))));
    }
    assertEquals(PUTS, puts.size(), r.toString());
    long charge = puts.get(0).held(); // put 1 is stored: one sample's charge
    assertTrue(charge >= 64 << 10, r.toString());
    long threw = 0;
    Put before = new Put(0, false, null, 0, 0, 0);
    for (Put p : puts) {
      String expected =
          p.index() % 5 == 0
              ? "NullPointerException"
              : p.index() % 3 == 0 ? "CacheWriterException" : null;
      assertEquals(expected, p.exception(), "put " + p.index() + ": " + r.stdout);
      assertEquals(before.admissions() + 1, p.admissions(), "put " + p.index() + " admitted");
      if (p.threw()) {
        threw++;
        assertEquals(before.releases() + 1, p.releases(), "put " + p.index() + " released");
        assertEquals(before.held(), p.held(), "put " + p.index() + ": its bytes back at once");
      } else {
        assertEquals(before.releases(), p.releases(), "put " + p.index() + " kept");
        assertEquals(before.held() + charge, p.held(), "put " + p.index() + " holds one charge");
      }
      before = p;
    }
    Matcher end = Pattern.compile("STORED=(\\d+) BYTES=(\\d+)").matcher(r.stdout);
    assertTrue(end.find(), r.toString());
    long stored = Long.parseLong(end.group(1));
    assertEquals(PUTS - threw, stored, "what the cache holds: the puts that did not throw");
    assertEquals(stored * charge, before.held(), "held: what the cache holds, no more");
    Map<String, Long> summaries = ExportersIT.summaries(r.recording, "jcache");
    assertEquals(
        (long) PUTS,
        (long) summaries.get("admissions"),
        "the recording's summaries count every admission");
    assertEquals(threw, (long) summaries.get("releases"), "and each put that threw as released");
    long callThrew =
        r.events(ReleaseEvent.NAME).stream()
            .filter(e -> e.getString("cause").equals("CALL_THREW"))
            .count();
    assertEquals(threw, callThrew, "each a CALL_THREW release: " + r);
  }
}
