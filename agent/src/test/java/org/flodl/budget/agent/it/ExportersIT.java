package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.COLLECTED;
import static org.flodl.budget.events.EventFields.DECLINED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.UNPRICED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The site and tier MBeans as a production dashboard reads them: the loader app trains with the
 * flodl agent beside Prometheus's {@code jmx_exporter} agent, or beside the OpenTelemetry Java
 * agent with its Prometheus exporter, each on a loopback port and each with the rules file the
 * agent ships ({@code agent/target/jmx_exporter.yaml}, {@code otel-jmx.yaml}). {@code /metrics} is
 * scraped with an HTTP client while the app trains and once it is done: the per-site counters only
 * grow, and at the end they are the recording's {@code SiteSummary} sums and the app's own counts,
 * under the same metric names from both exporters.
 */
@Tag("slow")
class ExportersIT {
  static final Path AGENTS = Path.of(System.getProperty("flodl.it.agents", "target/agents"));
  static final Path RULES = ChildJvm.AGENT_JAR.toAbsolutePath().getParent();

  /** The two exporters, each as the JVM options that start it on {@code port}. */
  enum Exporter {
    JMX_EXPORTER {
      @Override
      List<String> options(int port) {
        return List.of(
            "-javaagent:"
                + jar("jmx_prometheus_javaagent.jar")
                + "=127.0.0.1:"
                + port
                + ":"
                + RULES.resolve("jmx_exporter.yaml"));
      }
    },
    OPENTELEMETRY {
      @Override
      List<String> options(int port) {
        return List.of(
            "-javaagent:" + jar("opentelemetry-javaagent.jar"),
            "-Dotel.jmx.config=" + RULES.resolve("otel-jmx.yaml"),
            "-Dotel.jmx.discovery.delay=200ms",
            "-Dotel.metrics.exporter=prometheus",
            "-Dotel.exporter.prometheus.host=127.0.0.1",
            "-Dotel.exporter.prometheus.port=" + port,
            "-Dotel.traces.exporter=none",
            "-Dotel.logs.exporter=none");
      }
    };

    abstract List<String> options(int port);
  }

  static Path jar(String name) {
    Path p = AGENTS.resolve(name).toAbsolutePath();
    if (!Files.isRegularFile(p)) {
      throw new AssertionError(
          "no " + p + " (the agent module's generate-test-resources copies it)");
    }
    return p;
  }

  /** The MBean attributes read as metrics, each with the SiteSummary field it sums. */
  static final Map<String, String> COUNTERS =
      Map.of(
          "flodl_budget_site_admissions_total", ADMISSIONS,
          "flodl_budget_site_admitted_bytes_total", ADMITTED_BYTES,
          "flodl_budget_site_declines_total", DECLINES,
          "flodl_budget_site_declined_bytes_total", DECLINED_BYTES,
          "flodl_budget_site_materializations_total", MATERIALIZED,
          "flodl_budget_site_releases_total", RELEASES,
          "flodl_budget_site_released_bytes_total", RELEASED_BYTES,
          "flodl_budget_site_collected_total", COLLECTED,
          "flodl_budget_site_already_held_total", ALREADY_HELD,
          "flodl_budget_site_unpriced_total", UNPRICED);

  @ParameterizedTest
  @EnumSource(Exporter.class)
  void theScrapedCountersAreTheRecordingsSummariesAndTheAppsCounts(Exporter exporter)
      throws Exception {
    int port = freePort();
    String name = "exporter-" + exporter.name().toLowerCase(java.util.Locale.ROOT);
    Path file = ChildJvm.WORK.resolve(name + ".jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    List<String> jvm = new ArrayList<>(exporter.options(port));
    jvm.add("-Xmx256m");
    ChildJvm child =
        ChildJvm.on(name, Jdk.JDK17)
            .jvm(jvm.toArray(new String[0]))
            .agent(
                "sites="
                    + Path.of(System.getProperty("flodl.it.loaderSites", "../test-apps/loader-app"))
                        .resolve("sites.properties")
                        .toAbsolutePath()
                    + ",record="
                    + file)
            .classPath(
                Path.of(
                    System.getProperty(
                        "flodl.it.loaderApp",
                        "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar")))
            .timeout(180);
    Process p =
        child.start(
            "com.acme.train.TrainMain",
            "--sample-bytes=1M",
            "--samples=400",
            "--epochs=4",
            "--batch-size=4",
            "--depth=8",
            "--compute-us=5000",
            "--linger=true");
    try {
      RecordingsIT.awaitLine(child, "epoch=1 ", 120);
      Map<String, Long> during = site(scrape(port), "samples");
      boolean stillTraining = !child.stdoutSoFar().contains("TRAINING COMPLETE");
      RecordingsIT.awaitLine(child, "LINGERING", 120);
      String text = scrape(port);
      Map<String, Long> after = site(text, "samples");
      Map<String, Long> feed = site(text, "feed");
      Map<String, Long> heap = series(text, "tier", "heap");
      p.getOutputStream().close();
      ChildJvm.Result r = child.await(p);
      assertEquals(0, r.exitCode, r.toString());
      System.out.println(
          exporter
              + ": scraped during training (still training: "
              + stillTraining
              + ") "
              + during
              + "; after "
              + after);

      for (String metric : COUNTERS.keySet()) {
        assertTrue(after.containsKey(metric), metric + " not scraped: " + text);
        assertTrue(
            during.get(metric) <= after.get(metric),
            metric + " went down: " + during + " then " + after);
      }
      assertTrue(
          during.get("flodl_budget_site_declines_total")
                  + during.get("flodl_budget_site_admissions_total")
              > 0,
          "nothing decided by epoch 1");

      Map<String, Long> ledger = summaries(file, "samples");
      for (Map.Entry<String, String> m : COUNTERS.entrySet()) {
        assertEquals(
            ledger.getOrDefault(m.getValue(), 0L),
            after.get(m.getKey()),
            m.getKey() + " against SiteSummary." + m.getValue() + ": " + ledger);
      }
      long misses = 0;
      long puts = 0;
      for (int epoch = 1; epoch <= 4; epoch++) {
        LoaderEpoch e = LoaderEpoch.of(r, epoch);
        misses += e.get("cacheMisses");
        puts += e.get("puts");
      }
      long admissions = after.get("flodl_budget_site_admissions_total");
      long declines = after.get("flodl_budget_site_declines_total");
      assertTrue(admissions > 0 && declines > 0, "the budget binds at -Xmx256m: " + after);
      assertEquals(misses, admissions + declines, "one decision per miss");
      assertEquals(puts, admissions, "every put the app counted was admitted");
      assertEquals(
          Long.parseLong(r.value("evicted")),
          after.get("flodl_budget_site_releases_total"),
          "the app's evictions are the releases");
      assertEquals(0, after.get("flodl_budget_site_held_bytes"), "all evicted: " + after);
      assertEquals(0, heap.get("flodl_budget_tier_held_bytes"), "the heap holds nothing: " + heap);
      assertTrue(heap.containsKey("flodl_budget_tier_budget_bytes"), heap.toString());
      RecordedEvent lastDepth = null;
      for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
        if (e.getEventType().getName().equals(PrefetchDepthEvent.NAME)
            && "feed".equals(e.getString(SITE))
            && (lastDepth == null || !e.getEndTime().isBefore(lastDepth.getEndTime()))) {
          lastDepth = e;
        }
      }
      assertTrue(lastDepth != null, "no PrefetchDepth event for the feed site");
      assertEquals(
          LoaderEpoch.of(r, 4).get("depth"),
          feed.get("flodl_budget_site_depth"),
          "the depth the app's last loader got: " + feed);
      assertEquals(lastDepth.getLong(DEPTH), feed.get("flodl_budget_site_depth"), feed.toString());
      assertEquals(8, feed.get("flodl_budget_site_requested_depth"), feed.toString());
    } finally {
      p.destroyForcibly();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  /**
   * Returns {@code /metrics} once it has every counter of {@link #COUNTERS} for the samples site:
   * an exporter discovers MBeans late, and the OpenTelemetry agent registers each metric of its
   * rules as its own instrument, so one scrape can hold some of a site's counters and not yet the
   * others.
   */
  static String scrape(int port) throws Exception {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest get =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
            .timeout(Duration.ofSeconds(10))
            .GET()
            .build();
    String last = "";
    for (int i = 0; i < 100; i++) {
      try {
        HttpResponse<String> res = http.send(get, HttpResponse.BodyHandlers.ofString());
        last = res.statusCode() + " " + res.body();
        if (res.statusCode() == 200
            && site(res.body(), "samples").keySet().containsAll(COUNTERS.keySet())) {
          return res.body();
        }
      } catch (IOException e) {
        last = e.toString();
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "not every counter of "
            + COUNTERS.keySet()
            + " for the samples site at port "
            + port
            + " in 20 s: "
            + last);
  }

  private static final Pattern SAMPLE = Pattern.compile("^(\\w+)\\{([^}]*)\\} (\\S+)$");
  private static final Pattern LABEL = Pattern.compile("(\\w+)=\"([^\"]*)\"");

  /** Returns the flodl series of {@code text} whose label {@code label} is {@code value}. */
  static Map<String, Long> series(String text, String label, String value) {
    Map<String, Long> out = new HashMap<>();
    for (String line : text.split("\n")) {
      Matcher m = SAMPLE.matcher(line.trim());
      if (!m.matches() || !m.group(1).startsWith("flodl_budget_")) {
        continue;
      }
      Matcher l = LABEL.matcher(m.group(2));
      while (l.find()) {
        if (l.group(1).equals(label) && l.group(2).equals(value)) {
          out.put(m.group(1), (long) Double.parseDouble(m.group(3)));
        }
      }
    }
    return out;
  }

  static Map<String, Long> site(String text, String site) {
    return series(text, "site", site);
  }

  /** Returns the sums of {@code site}'s SiteSummary fields in {@code file}. */
  static Map<String, Long> summaries(Path file, String site) throws IOException {
    Map<String, Long> sums = new HashMap<>();
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (e.getEventType().getName().equals(SiteSummaryEvent.NAME)
          && site.equals(e.getString(SITE))) {
        for (String field : COUNTERS.values()) {
          sums.merge(field, e.getLong(field), Long::sum);
        }
      }
    }
    return sums;
  }
}
