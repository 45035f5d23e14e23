package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.MESSAGE;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.junit.jupiter.api.Test;

/**
 * DJL's data-iteration classes are the same bytecode from 0.28 to 0.36: the agent weaves the API
 * jar of 0.28.0, 0.30.0, 0.33.0 and 0.36.0, each in its own class loader of one child JVM (copied
 * into target/djl-compat by the build), and each woven constructor applies the decision (a request
 * of 8 queues the 4 of an unpriced host ring); a class of the same name with another constructor
 * has that constructor skipped with a warning and an Instrumented SKIPPED event, and still works as
 * written.
 */
class DjlCompatIT {
  static final Path JARS = Path.of(System.getProperty("flodl.it.djlCompat", "target/djl-compat"));
  static final List<String> VERSIONS = List.of("0.28.0", "0.30.0", "0.33.0", "0.36.0");
  static final String DATA_ITERABLE = "ai.djl.training.dataset.DataIterable";
  static final String BULK = "ai.djl.training.dataset.BulkDataIterable";

  @Test
  void weavesEveryVersionAndSkipsOneItDoesNotRecognise() throws Exception {
    List<String> args = new ArrayList<>();
    Path slf4j = JARS.resolve("slf4j-api-2.0.17.jar");
    assertTrue(Files.exists(slf4j), "missing " + slf4j + " (dependency:copy djl-compat-jars)");
    for (String v : VERSIONS) {
      Path jar = JARS.resolve("api-" + v + ".jar");
      assertTrue(Files.exists(jar), "missing " + jar + " (dependency:copy djl-compat-jars)");
      args.add(v + "=" + jar.toAbsolutePath() + "," + slf4j.toAbsolutePath());
    }
    args.add("fake=" + fakeDjl().toAbsolutePath());

    ChildJvm.Result bare =
        ChildJvm.on("djl-compat-bare", ChildJvm.Jdk.JDK17)
            .run("com.acme.djlcompat.LoadIterables", args.toArray(new String[0]));
    assertEquals(0, bare.exitCode, bare.toString());
    assertTrue(
        bare.stdout.contains("CONSTRUCTED 0.28.0 " + DATA_ITERABLE + " executor=present queued=8"),
        "without the agent the request stands: " + bare);

    ChildJvm.Result r =
        ChildJvm.on("djl-compat", ChildJvm.Jdk.JDK17)
            .agent("djl=on,ram_probe=fixed:1G")
            .record()
            .run("com.acme.djlcompat.LoadIterables", args.toArray(new String[0]));
    assertEquals(0, r.exitCode, r.toString());
    assertTrue(r.stdout.contains("DONE"), r.toString());
    List<RecordedEvent> instrumented = r.events(InstrumentedEvent.NAME);
    for (String v : VERSIONS) {
      for (String c : List.of(DATA_ITERABLE, BULK)) {
        assertTrue(
            r.stdout.contains(
                "CONSTRUCTED " + v + " " + c + " executor=present queued=4 submitted=4"),
            v + " " + c + ": " + r);
      }
    }
    long wovenEpochs =
        instrumented.stream()
            .filter(
                e ->
                    e.getString(CLASS_NAME).equals(DATA_ITERABLE)
                        && e.getString(OUTCOME).equals("WOVEN")
                        && e.getString(MESSAGE)
                            .contains(
                                "prefetch depth at <init>(RandomAccessDataset, "
                                    + "NDManager, Sampler, Batchifier, Batchifier, Pipeline, Pipeline, ExecutorService, "
                                    + "int, Device)")
                        && e.getString(MESSAGE).contains("batch pricing at fetch(List, int)"))
            .count();
    long wovenBulk =
        instrumented.stream()
            .filter(
                e ->
                    e.getString(CLASS_NAME).equals(BULK)
                        && e.getString(OUTCOME).equals("WOVEN")
                        && e.getString(MESSAGE).equals("batch pricing at fetch(List, int)"))
            .count();
    assertEquals(VERSIONS.size(), wovenEpochs, instrumented.toString());
    // BulkDataIterable overrides fetch without super: its own fetch is woven, in every version
    // and in the fake one (whose fetch has the same parameters).
    assertEquals(VERSIONS.size() + 1, wovenBulk, instrumented.toString());
    assertEquals(
        2 * VERSIONS.size(),
        r.events(PrefetchDepthEvent.NAME).size(),
        "one decision per construction, BulkDataIterable's through super()");

    // The unrecognised version: its epoch constructor skipped, said once, never broken.
    List<RecordedEvent> skipped =
        instrumented.stream().filter(e -> e.getString(OUTCOME).equals("SKIPPED")).toList();
    assertEquals(1, skipped.size(), instrumented.toString());
    assertEquals(DATA_ITERABLE, skipped.get(0).getString(CLASS_NAME));
    assertTrue(
        skipped
            .get(0)
            .getString(MESSAGE)
            .startsWith(
                "no constructor "
                    + DATA_ITERABLE
                    + "#<init>(ai.djl.training.dataset.RandomAccessDataset,"),
        skipped.toString());
    assertTrue(
        r.stderr.contains(
            "preset site 'djl': ai.djl.training.dataset.DataIterable is a "
                + "version the preset does not recognise"),
        r.stderr);
    assertTrue(
        r.stdout.contains(
            "CONSTRUCTED fake "
                + DATA_ITERABLE
                + " executor=present queued=null submitted=0 prefetch=8"),
        r.toString());
    assertTrue(
        r.stdout.contains(
            "CONSTRUCTED fake " + BULK + " executor=present queued=null submitted=0 prefetch=8"),
        r.toString());
  }

  /** Returns a directory with a DataIterable of another shape: (Object, ExecutorService, int). */
  private static Path fakeDjl() throws Exception {
    Path src = ChildJvm.WORK.resolve("djl-fake-src/ai/djl/training/dataset");
    Path out = ChildJvm.WORK.resolve("djl-fake-classes");
    Files.createDirectories(src);
    Files.createDirectories(out);
    Files.writeString(
        src.resolve("DataIterable.java"),
        "package ai.djl.training.dataset;\n"
            + "public class DataIterable {\n"
            + "  java.util.concurrent.ExecutorService executor; int prefetch;\n"
            + "  public DataIterable(Object dataset, java.util.concurrent.ExecutorService executor,"
            + " int prefetch) { this.executor = executor; this.prefetch = prefetch; }\n"
            + "  protected Object fetch(java.util.List<Long> indices, int progress) { return null; }\n"
            + "}\n");
    Files.writeString(
        src.resolve("BulkDataIterable.java"),
        "package ai.djl.training.dataset;\n"
            + "public class BulkDataIterable extends DataIterable {\n"
            + "  public BulkDataIterable(Object dataset, java.util.concurrent.ExecutorService e,"
            + " int prefetch) { super(dataset, e, prefetch); }\n"
            + "  protected Object fetch(java.util.List<Long> indices, int progress) { return null; }\n"
            + "}\n");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    int rc =
        javac.run(
            null,
            null,
            null,
            "-d",
            out.toString(),
            src.resolve("DataIterable.java").toString(),
            src.resolve("BulkDataIterable.java").toString());
    assertEquals(0, rc, "compiling the fake DJL classes");
    return out;
  }
}
