package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Training jobs of the JVM's other languages, each compiled by its own Maven plugin ({@code
 * test-apps/scala-app}: Scala 2.13, {@code scala3-app}: Scala 3, {@code kotlin-app}): a dataset
 * memoizing 1 MiB samples in a collection field, a prefetcher draining a bounded queue sized by a
 * constructor argument. At {@code -Xmx128m} without the agent the prefetch thread dies of {@code
 * OutOfMemoryError} and the job never ends (the test bounds it); with the sites file {@code
 * suggest} prints for its class path, unedited, it completes with every sample delivered and the
 * checksum of a big-heap run without the agent, its cache declining and its queue's depth decided.
 */
@Tag("slow")
class OtherLanguagesIT {
  static final Path APPS = Path.of(System.getProperty("flodl.it.testApps", "../test-apps"));
  static final List<String> ARGS = List.of("--samples=200", "--epochs=2", "--batch=4", "--depth=4");

  @ParameterizedTest
  @CsvSource({
    "scala, com.acme.scala.Train",
    "scala3, com.acme.scala.Train",
    "kotlin, com.acme.kotlin.TrainKt"
  })
  void theSuggestedFileUneditedKeepsTheJobAlive(String app, String main) throws Exception {
    Path target = APPS.resolve(app + "-app/target").toAbsolutePath();
    Path classes = target.resolve("classes");
    Preconditions.require(
        Files.isDirectory(classes) && Files.exists(target.resolve("classpath.txt")),
        "test-apps/" + app + "-app is not built (" + target + ")");
    String libs = Files.readString(target.resolve("classpath.txt"), StandardCharsets.UTF_8).trim();
    String classPath = classes + java.io.File.pathSeparator + libs;

    Path sites = ChildJvm.WORK.resolve("languages-" + app + ".properties").toAbsolutePath();
    Files.createDirectories(ChildJvm.WORK);
    List<String> suggest =
        new ArrayList<>(
            List.of(
                ChildJvm.Jdk.JDK17.java().toString(),
                "-jar",
                ChildJvm.AGENT_JAR.toAbsolutePath().toString(),
                "suggest",
                "--check",
                classes.toString()));
    suggest.addAll(List.of(libs.split(java.io.File.pathSeparator)));
    Process s = ChildJvm.launch("languages-" + app + "-suggest", suggest);
    assertTrue(s.waitFor(120, TimeUnit.SECONDS), "suggest ran past 120 s");
    Files.copy(
        ChildJvm.WORK.resolve("languages-" + app + "-suggest.out"),
        sites,
        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    String err = Files.readString(ChildJvm.WORK.resolve("languages-" + app + "-suggest.err"));
    assertEquals(0, s.exitValue(), err);
    String file = Files.readString(sites);
    assertTrue(
        file.contains("site.dataset-cache.kind") && file.contains("site.prefetcher-queue.batch"),
        "suggest missed the cache or the batch: " + file);

    // Without the agent, at -Xmx128m: the prefetch thread dies and next() waits for ever.
    List<String> bareCmd = command("-Xmx128m", null, classPath, main);
    Process bare = ChildJvm.launch("languages-" + app + "-bare", bareCmd);
    Path bareErrFile = ChildJvm.WORK.resolve("languages-" + app + "-bare.err");
    // A premise waited for, not a bound on how soon (that is the machine's: the JVM's start, the
    // reader's allocations): the wait ends 3 s after the reader died, 120 s at most.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    long oomSeen = 0;
    boolean ended = false;
    while (System.nanoTime() < deadline && !ended) {
      ended = bare.waitFor(200, TimeUnit.MILLISECONDS);
      if (oomSeen == 0 && Files.readString(bareErrFile).contains("OutOfMemoryError")) {
        oomSeen = System.nanoTime();
      }
      if (oomSeen != 0 && System.nanoTime() - oomSeen > TimeUnit.SECONDS.toNanos(3)) {
        break; // the reader died 3 s ago and the job has not ended: it waits for ever
      }
    }
    bare.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    String bareOut = Files.readString(ChildJvm.WORK.resolve("languages-" + app + "-bare.out"));
    String bareErr = Files.readString(ChildJvm.WORK.resolve("languages-" + app + "-bare.err"));
    assertFalse(bareOut.contains("TRAINING COMPLETE"), "the job fit without the agent: " + bareOut);
    assertTrue(!ended || bare.exitValue() != 0, "ended without completing, exit 0: " + bareOut);
    assertTrue(bareErr.contains("OutOfMemoryError"), "no OutOfMemoryError: " + bareErr);

    ChildJvm.Result big = run(app + "-big", "-Xmx1g", null, classPath, main);
    String checksum = big.value("checksum");

    Path recording = ChildJvm.WORK.resolve("languages-" + app + ".jfr").toAbsolutePath();
    Files.deleteIfExists(recording);
    ChildJvm.Result r =
        run(app + "-agent", "-Xmx128m", "sites=" + sites + ",record=" + recording, classPath, main);
    assertEquals("400", r.value("samples_delivered"), r.toString());
    assertEquals(checksum, r.value("checksum"), "the samples of the big-heap run: " + r);
    long admissions = 0;
    long declines = 0;
    int depths = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
      String name = e.getEventType().getName();
      if (name.equals(SiteSummaryEvent.NAME) && e.getString(SITE).equals("dataset-cache")) {
        admissions += e.getLong(ADMISSIONS);
        declines += e.getLong(DECLINES);
      } else if (name.equals(PrefetchDepthEvent.NAME)
          && e.getString(SITE).equals("prefetcher-queue")) {
        depths++;
      }
    }
    System.out.println(
        app + ": " + admissions + " admitted, " + declines + " declined, " + depths + " depths");
    assertTrue(
        admissions > 0 && declines > 0,
        "the cache budgeted: " + admissions + " admitted, " + declines + " declined");
    assertEquals(2, depths, "one depth decision per epoch's prefetcher");
  }

  private static List<String> command(String heap, String agent, String classPath, String main) {
    List<String> cmd = new ArrayList<>(List.of(ChildJvm.Jdk.JDK17.java().toString(), heap));
    if (agent != null) {
      cmd.add("-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + agent);
    }
    cmd.addAll(List.of("-cp", classPath, main));
    cmd.addAll(ARGS);
    return cmd;
  }

  private static ChildJvm.Result run(
      String name, String heap, String agent, String classPath, String main) throws Exception {
    String child = "languages-" + name;
    Process p = ChildJvm.launch(child, command(heap, agent, classPath, main));
    boolean ended = p.waitFor(120, TimeUnit.SECONDS);
    if (!ended) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    ChildJvm.Result r =
        new ChildJvm.Result(
            child,
            ended ? p.exitValue() : -1,
            Files.readString(ChildJvm.WORK.resolve(child + ".out")),
            Files.readString(ChildJvm.WORK.resolve(child + ".err")),
            null);
    assertTrue(ended, child + " ran past 120 s: " + r);
    assertEquals(0, r.exitCode, r.toString());
    return r;
  }
}
