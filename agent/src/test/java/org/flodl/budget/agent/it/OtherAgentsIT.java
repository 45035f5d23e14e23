package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.BATCH_BYTES;
import static org.flodl.budget.events.EventFields.CLASS_NAME;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.OUTCOME;
import static org.flodl.budget.events.EventFields.REASON;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.REQUESTED_DEPTH;
import static org.flodl.budget.events.EventFields.SITE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The agents a production JVM already runs, beside this one in one JVM: the OpenTelemetry Java
 * agent (with its JMX metrics on the flodl rules), Prometheus's {@code jmx_exporter} and JaCoCo's
 * agent, with the flodl agent first and last on the command line. On the loader app and on the DJL
 * app each order gives what the app gives alone (its checksums; the loader app's model and
 * per-epoch counts) and the decisions the flodl agent takes alone (the ledger, the depths); each
 * class is woven once, as alone, and each of the other agents did its work (JaCoCo wrote its
 * coverage, jmx_exporter served the flodl metrics, OpenTelemetry started).
 */
@Tag("slow")
class OtherAgentsIT {
  static final Path LOADER =
      Path.of(
          System.getProperty(
              "flodl.it.loaderApp",
              "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar"));
  static final Path LOADER_SITES =
      Path.of(System.getProperty("flodl.it.loaderSites", "../test-apps/loader-app"))
          .resolve("sites.properties");

  /** A budget that never binds (-Xmx1g, 50 MiB of samples): the same decisions in every run. */
  static final List<String> LOADER_ARGS =
      List.of(
          "--sample-bytes=256K",
          "--samples=200",
          "--epochs=3",
          "--batch-size=8",
          "--depth=4",
          "--linger=true");

  @Test
  void theLoaderAppTrainsAsAloneWithTheOtherAgentsInEitherOrder() throws Exception {
    Run bare = Run.loader("agents-loader-bare", List.of(), false);
    Run alone = Run.loader("agents-loader-alone", flodl("agents-loader-alone"), false);
    Run first = Run.loader("agents-loader-first", withOthers("agents-loader-first", true), true);
    Run last = Run.loader("agents-loader-last", withOthers("agents-loader-last", false), true);
    String checksum = bare.result.value("checksum");
    for (Run r : List.of(alone, first, last)) {
      assertEquals(checksum, r.result.value("checksum"), "the samples delivered: " + r.result);
      assertEquals(bare.result.value("model"), r.result.value("model"), r.result.toString());
      for (int epoch = 1; epoch <= 3; epoch++) {
        for (String key : List.of("cacheHits", "cacheMisses", "puts", "cacheSize", "depth")) {
          assertEquals(
              LoaderEpoch.of(bare.result, epoch).get(key),
              LoaderEpoch.of(r.result, epoch).get(key),
              "epoch " + epoch + " " + key + ": " + r.result);
        }
      }
    }
    Decisions expected = Decisions.of(alone.recording);
    assertTrue(expected.ledger.get("samples/admissions") == 200, expected.toString());
    for (Run r : List.of(first, last)) {
      assertEquals(expected, Decisions.of(r.recording), r.result.name);
      othersDidTheirWork(r);
    }
  }

  @Test
  void theDjlAppTrainsAsAloneWithTheOtherAgentsInEitherOrder() throws Exception {
    Run bare = Run.djl("agents-djl-bare", List.of());
    Run alone = Run.djl("agents-djl-alone", flodl("agents-djl-alone"));
    Run first = Run.djl("agents-djl-first", withOthers("agents-djl-first", true));
    Run last = Run.djl("agents-djl-last", withOthers("agents-djl-last", false));
    for (Run r : List.of(alone, first, last)) {
      // What the agents may change: every epoch's samples, their batches and order, the batch
      // count; the losses are the engine's floating point on this machine (DjlTrainIT).
      DjlTrainIT.sameBatches(bare.result, r.result);
      assertEquals(AppJvm.batches(bare.result), AppJvm.batches(r.result), r.result.toString());
      assertEquals("0", r.result.value("empty_epochs"), r.result.toString());
    }
    Decisions expected = Decisions.of(alone.recording);
    assertEquals(3, expected.depths.size(), "one depth per epoch: " + expected);
    for (Run r : List.of(first, last)) {
      assertEquals(expected, Decisions.of(r.recording), r.result.name);
      assertTrue(Files.size(r.jacoco) > 0, "JaCoCo wrote no coverage: " + r.result);
      assertTrue(
          r.result.stderr.contains("opentelemetry-javaagent - version: 2.10.0"),
          r.result.toString());
    }
  }

  /**
   * The flodl agent's option, recording to WORK/NAME.jfr: the loader app's sites file for a {@code
   * agents-loader-} run, none for the DJL app (its built-in site).
   */
  static List<String> flodl(String name) throws IOException {
    Path file = ChildJvm.WORK.resolve(name + ".jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    String sites =
        name.startsWith("agents-loader-") ? "sites=" + LOADER_SITES.toAbsolutePath() + "," : "";
    return List.of(
        "-javaagent:" + ChildJvm.AGENT_JAR.toAbsolutePath() + "=" + sites + "record=" + file);
  }

  /** The four agents' options, the flodl agent {@code first} or last. */
  static List<String> withOthers(String name, boolean first) throws IOException {
    Path jacoco = ChildJvm.WORK.resolve(name + ".exec").toAbsolutePath();
    Files.deleteIfExists(jacoco);
    int port = ExportersIT.freePort();
    List<String> others =
        new ArrayList<>(
            List.of(
                "-javaagent:" + ExportersIT.jar("opentelemetry-javaagent.jar"),
                "-Dotel.jmx.config=" + ExportersIT.RULES.resolve("otel-jmx.yaml"),
                "-Dotel.metrics.exporter=none",
                "-Dotel.traces.exporter=none",
                "-Dotel.logs.exporter=none",
                "-javaagent:"
                    + ExportersIT.jar("jmx_prometheus_javaagent.jar")
                    + "=127.0.0.1:"
                    + port
                    + ":"
                    + ExportersIT.RULES.resolve("jmx_exporter.yaml"),
                "-Dflodl.it.port=" + port,
                "-javaagent:"
                    + ExportersIT.jar("org.jacoco.agent-runtime.jar")
                    + "=destfile="
                    + jacoco
                    + ",includes=com.acme.*"));
    List<String> all = new ArrayList<>();
    if (first) {
      all.addAll(flodl(name));
      all.addAll(others);
    } else {
      all.addAll(others);
      all.addAll(flodl(name));
    }
    return all;
  }

  static void othersDidTheirWork(Run r) throws IOException {
    assertTrue(Files.size(r.jacoco) > 0, "JaCoCo wrote no coverage: " + r.result);
    assertTrue(
        r.result.stderr.contains("opentelemetry-javaagent - version: 2.10.0"), r.result.toString());
    assertTrue(
        r.scraped != null && r.scraped.contains("flodl_budget_site_admissions_total{"),
        "jmx_exporter served no flodl metric: " + r.scraped);
    assertEquals(
        200,
        ExportersIT.site(r.scraped, "samples").get("flodl_budget_site_admissions_total"),
        r.scraped);
  }

  /** One run: its result, recording, JaCoCo file and what jmx_exporter served at its end. */
  static final class Run {
    ChildJvm.Result result;
    Path recording;
    Path jacoco;
    String scraped;

    static Run loader(String name, List<String> options, boolean scrape) throws Exception {
      List<String> jvm = new ArrayList<>(options);
      jvm.add("-Xmx1g");
      return start(
          name,
          jvm,
          LOADER.toAbsolutePath().toString(),
          "com.acme.train.TrainMain",
          LOADER_ARGS,
          scrape);
    }

    static Run djl(String name, List<String> options) throws Exception {
      List<String> jvm = new ArrayList<>(options);
      jvm.add("-Dai.djl.offline=true");
      return start(
          name, jvm, AppJvm.DJL.classPath(), DjlTrainIT.TRAIN, List.of("--epochs=3"), false);
    }

    private static Run start(
        String name,
        List<String> jvm,
        String classPath,
        String main,
        List<String> args,
        boolean scrape)
        throws Exception {
      Run run = new Run();
      run.recording = ChildJvm.WORK.resolve(name + ".jfr").toAbsolutePath();
      run.jacoco = ChildJvm.WORK.resolve(name + ".exec").toAbsolutePath();
      List<String> cmd = new ArrayList<>();
      cmd.add(ChildJvm.Jdk.JDK17.java().toString());
      cmd.addAll(jvm);
      cmd.add("-cp");
      cmd.add(classPath);
      cmd.add(main);
      cmd.addAll(args);
      Path out = ChildJvm.WORK.resolve(name + ".out");
      Path err = ChildJvm.WORK.resolve(name + ".err");
      Process p = ChildJvm.launch(name, cmd);
      try {
        if (args.contains("--linger=true")) {
          long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
          while (!Files.readString(out).contains("LINGERING")
              && p.isAlive()
              && System.nanoTime() < end) {
            Thread.sleep(50);
          }
          String port =
              jvm.stream()
                  .filter(o -> o.startsWith("-Dflodl.it.port="))
                  .map(o -> o.substring("-Dflodl.it.port=".length()))
                  .findFirst()
                  .orElse(null);
          if (scrape && port != null && p.isAlive()) {
            run.scraped = ExportersIT.scrape(Integer.parseInt(port));
          }
          p.getOutputStream().close();
        }
        if (!p.waitFor(600, TimeUnit.SECONDS)) {
          throw new AssertionError(
              name
                  + " ran past 600 s; stdout:\n"
                  + Files.readString(out)
                  + "\nstderr:\n"
                  + Files.readString(err));
        }
      } finally {
        p.destroyForcibly();
      }
      run.result =
          new ChildJvm.Result(
              name, p.exitValue(), Files.readString(out), Files.readString(err), run.recording);
      assertEquals(0, run.result.exitCode, run.result.toString());
      for (String clash :
          List.of(
              "LinkageError",
              "NoClassDefFoundError",
              "ClassCastException",
              "VerifyError",
              "ClassFormatError")) {
        assertTrue(!run.result.stderr.contains(clash), clash + ": " + run.result);
      }
      return run;
    }
  }

  /** What the flodl agent decided and wove: the ledger by site, the depths, the woven classes. */
  record Decisions(Map<String, Long> ledger, List<String> depths, Map<String, Long> woven) {
    static Decisions of(Path file) throws IOException {
      Map<String, Long> ledger = new TreeMap<>();
      List<RecordedEvent> depthEvents = new ArrayList<>();
      Map<String, Long> woven = new TreeMap<>();
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        switch (e.getEventType().getName()) {
          case SiteSummaryEvent.NAME -> {
            for (String k :
                List.of(
                    ADMISSIONS,
                    DECLINES,
                    MATERIALIZED,
                    ALREADY_HELD,
                    RELEASES,
                    ADMITTED_BYTES,
                    RELEASED_BYTES)) {
              ledger.merge(e.getString(SITE) + "/" + k, e.getLong(k), Long::sum);
            }
          }
          case PrefetchDepthEvent.NAME -> depthEvents.add(e);
          case InstrumentedEvent.NAME ->
              woven.merge(
                  e.getString(CLASS_NAME) + " " + e.getString(SITE) + " " + e.getString(OUTCOME),
                  1L,
                  Long::sum);
          default -> {}
        }
      }
      depthEvents.sort((a, b) -> a.getEndTime().compareTo(b.getEndTime()));
      List<String> depths = new ArrayList<>();
      for (RecordedEvent e : depthEvents) {
        depths.add(
            e.getString(SITE)
                + " "
                + e.getLong(REQUESTED_DEPTH)
                + "->"
                + e.getLong(DEPTH)
                + " "
                + e.getString(REASON)
                + " "
                + e.getLong(BATCH_BYTES));
      }
      ledger.values().removeIf(v -> v == 0);
      return new Decisions(ledger, depths, woven);
    }
  }
}
