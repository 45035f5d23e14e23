package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Arguments a careless or hostile user gives the agent (issue 16): files that are pipes, devices,
 * binaries or huge, values that overflow, a 100 KB argument, sites that contradict each other. Each
 * ends start-up without waiting on its input (a pipe is never opened, at most the 1 MiB bound of a
 * file is read: a start that waited would run into the child's timeout) with one line under 300
 * characters, printable, naming the problem; the application runs on, and {@code strict=true} fails
 * the start instead. How long a start takes is measured by benchmarks/startup.sh, not here.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class HostileInputIT {
  private static final String APP = "com.acme.it.CacheApp";
  private static Path dir;

  @BeforeAll
  static void files() throws Exception {
    dir = ChildJvm.WORK.resolve("hostile").toAbsolutePath();
    Files.createDirectories(dir);
    Path fifo = dir.resolve("fifo");
    Files.deleteIfExists(fifo);
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mk.waitFor(), "mkfifo");
    StringBuilder huge = new StringBuilder();
    while (huge.length() < 2 << 20) {
      huge.append("# a comment line that only makes the file bigger than a sites file may be\n");
    }
    Files.writeString(dir.resolve("huge.properties"), huge);
    Files.writeString(
        dir.resolve("no-site.properties"),
        "site.a.kind = bogus\nsite.a.method = com.acme.it.SampleStore#put\n");
  }

  static Stream<Arguments> refusedAtStart() {
    String fifo = dir.resolve("fifo").toString();
    String longValue = "9".repeat(100_000);
    return Stream.of(
        Arguments.of("sites=" + fifo, "not a regular file"),
        Arguments.of("sites=/dev/zero", "not a regular file"),
        Arguments.of("sites=/bin/ls", "it is not text"),
        Arguments.of("sites=" + dir.resolve("huge.properties"), "more than the 1048576"),
        Arguments.of("sites=" + dir.resolve("no-site.properties"), "kind 'bogus'"),
        Arguments.of("record=" + fifo, "not a regular file"),
        Arguments.of("record=/dev/full", "not a regular file"),
        Arguments.of("record=/no-such-folder/x.jfr", "does not exist"),
        Arguments.of("probe_interval=200000000m", "from 10ms to 1h"),
        Arguments.of("probe_interval=0ms", "from 10ms to 1h"),
        Arguments.of("ram_max_usage=" + longValue, "bad ram_max_usage"),
        Arguments.of("ram_max_usage=0.5\u001b[31mred", "\\x1b"));
  }

  @ParameterizedTest
  @MethodSource("refusedAtStart")
  void oneLineNoWaitAndStrictFailsTheStart(String args, String says) throws Exception {
    String name = "hostile-" + Integer.toHexString(args.hashCode());
    ChildJvm.Result r =
        ChildJvm.on(name, Jdk.JDK17)
            .agent(args)
            .timeout(60)
            .run(APP, "--samples=5", "--sample-bytes=1024");
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), "the application ran on: " + r);
    String line = onlyLine(r.stderr);
    assertTrue(line.contains(says), "want '" + says + "' in: " + line);

    ChildJvm.Result strict =
        ChildJvm.on(name + "-strict", Jdk.JDK17)
            .agent(args + ",strict=true")
            .timeout(60)
            .run(APP, "--samples=5", "--sample-bytes=1024");
    assertNotEquals(0, strict.exitCode, strict.toString());
    assertFalse(strict.stdout.contains("DONE"), "main never ran: " + strict);
    String strictLine = onlyLine(strict.stderr);
    assertTrue(strictLine.contains(says) && strictLine.contains("strict=true"), strictLine);
  }

  /** Returns the one agent line of {@code stderr}, checked for length and printable bytes. */
  private static String onlyLine(String stderr) {
    List<String> lines = stderr.lines().toList();
    assertEquals(
        1,
        lines.size(),
        "one line, nothing else: "
            + stderr.length()
            + " chars\n"
            + stderr.substring(0, Math.min(2_000, stderr.length())));
    String line = lines.get(0);
    assertTrue(line.startsWith("flodl-budget: "), line);
    assertTrue(line.length() < 300, line.length() + " characters: " + line);
    assertTrue(line.chars().allMatch(c -> c >= 0x20 && c != 0x7f), "non-printable bytes: " + line);
    return line;
  }

  static Stream<Arguments> conflicts() {
    String put = "com.acme.it.SampleStore#put(java.lang.Object,java.lang.Object)";
    return Stream.of(
        Arguments.of(
            "two sites on one method",
            "site.a.kind = cache-admit\nsite.a.method = "
                + put
                + "\nsite.a.value = 1\n"
                + "site.a.release = com.acme.it.SampleStore#evict\n"
                + "site.b.kind = cache-admit\nsite.b.method = "
                + put
                + "\nsite.b.value = 1\n"
                + "site.b.release = com.acme.it.SampleStore#evict\n",
            "site 'b' disabled: it budgets com.acme.it.SampleStore#put("),
        Arguments.of(
            "a release that is its own put",
            "site.a.kind = cache-admit\nsite.a.method = "
                + put
                + "\nsite.a.value = 1\n"
                + "site.a.release = com.acme.it.SampleStore#put\n",
            "site 'a' disabled: release 'com.acme.it.SampleStore#put' is the site's own method"));
  }

  /**
   * A conflict is refused by name before anything is woven: the site that comes second (or the one
   * that releases with its own put) is disabled, the other works, and the budget still binds: every
   * admitted byte is released (nothing stays held after the evictions).
   */
  @ParameterizedTest
  @MethodSource("conflicts")
  void siteConflictsAreRefusedByName(String what, String sites, String says) throws Exception {
    Path file = Sites.write("conflict-" + Integer.toHexString(what.hashCode()), sites);
    ChildJvm.Result r =
        ChildJvm.on("conflict-" + Integer.toHexString(what.hashCode()), Jdk.JDK17)
            .agent("sites=" + file)
            .record()
            .jvm("-Xmx256m")
            .run(APP, "--samples=40", "--sample-bytes=1048576", "--evict-at-end");
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stderr.contains(says), what + ": " + r.stderr);
    assertEquals(1, r.stderr.lines().filter(l -> l.contains("disabled")).count(), r.stderr);
    if (what.startsWith("two sites")) {
      assertEquals("heap=0", r.value("HELD_AFTER_EVICT"), "one site, each byte booked once: " + r);
      assertTrue(
          r.events(CacheAdmissionEvent.NAME).stream().allMatch(e -> e.getString(SITE).equals("a")),
          "only site a decides");
    } else {
      assertTrue(r.events(CacheAdmissionEvent.NAME).isEmpty(), "the site is off: " + r);
    }
    ChildJvm.Result strict =
        ChildJvm.on("conflict-strict-" + Integer.toHexString(what.hashCode()), Jdk.JDK17)
            .agent("sites=" + file + ",strict=true")
            .run(APP, "--samples=5");
    assertNotEquals(0, strict.exitCode, strict.toString());
    assertTrue(strict.stderr.contains(says), strict.stderr);
  }

  /** A release class that never loads: said at start, and again at exit since it never came. */
  @Test
  void aReleaseClassThatNeverLoadsIsReportedAtExit() throws Exception {
    Path file =
        Sites.write(
            "release-never",
            "site.a.kind = cache-admit\n"
                + "site.a.method = com.acme.it.SampleStore#put(java.lang.Object,java.lang.Object)\n"
                + "site.a.value = 1\nsite.a.release = com.acme.nowhere.Gone#evict\n");
    ChildJvm.Result r =
        ChildJvm.on("release-never", Jdk.JDK17)
            .agent("sites=" + file)
            .record()
            .run(APP, "--samples=5", "--sample-bytes=1024");
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(
        r.stderr.contains("site 'a': class com.acme.nowhere.Gone is not on the class path"),
        r.stderr);
    assertTrue(
        r.stderr.contains("site 'a': its release at com.acme.nowhere.Gone#evict was never woven"),
        r.stderr);
    assertFalse(
        r.stderr.contains("cache admission at com.acme.it.SampleStore#put was never woven"),
        "the put was woven: " + r.stderr);
    assertFalse(r.events(CacheAdmissionEvent.NAME).isEmpty(), "the put decides: " + r);
  }
}
