package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.DEPTH;
import static org.flodl.budget.events.EventFields.REASON;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.findings.Findings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * flodl's rules in Mission Control's automated analysis (issue 28), run as JMC runs them headless:
 * its own {@code JfrRulesReport} (the Maven artifacts, in a child JVM), with JMC's JDK rules beside
 * them and the {@code flodl-budget-jmc-rules} jar as it ships, over recordings of the demo, an
 * observe-mode run, the DJL app and an idle run. Each flodl rule's severity and text is what the
 * scenario shows, no rule (JMC's included) fails, and the agent's {@code report} prints the same
 * findings; a recording made with {@code -XX:StartFlightRecording} and the agent's {@code .jfc}
 * gives the same results as {@code record=}.
 */
@Tag("slow") // child JVMs of the loader app and DJL, and JMC's report over each
class MissionControlRulesIT {
  static final Path LOADER =
      Path.of(
          System.getProperty(
              "flodl.it.loaderApp",
              "../test-apps/loader-app/target/flodl-budget-loader-app-0.1.0-SNAPSHOT.jar"));
  static final Path LOADER_SITES =
      Path.of(System.getProperty("flodl.it.loaderSites", "../test-apps/loader-app"))
          .resolve("sites.properties")
          .toAbsolutePath();
  static final Path JMC_RULES =
      Path.of(
          System.getProperty(
              "flodl.it.jmcRules",
              "../jmc-rules/target/flodl-budget-jmc-rules-0.1.0-SNAPSHOT.jar"));
  static final String[] DEMO_ARGS = {
    "--sample-bytes=1M", "--samples=400", "--epochs=2", "--batch-size=4", "--depth=8"
  };

  static Path demo;

  @BeforeAll
  static void theDemo() throws Exception {
    Path file = ChildJvm.WORK.resolve("jmc-demo.jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    ChildJvm.Result r =
        ChildJvm.on("jmc-demo", Jdk.JDK17)
            .jvm("-Xmx256m")
            .classPath(LOADER)
            .agent("sites=" + LOADER_SITES + ",record=" + file)
            .timeout(120)
            .run("com.acme.train.TrainMain", DEMO_ARGS);
    assertEquals(0, r.exitCode, r.toString());
    demo = file;
  }

  @Test
  void theDemoDeclinesAndTheRulesSayWhyAndWhatToDo() throws Exception {
    Map<String, Rule> rules = rulesReport(demo);
    Rule declines = rules.get("flodl.Declines");
    assertEquals("Warning", declines.severity, declines.toString());
    // The budget named is the tier's last: tens of MiB on a quiet machine, down to 0 B where the
    // heap was full of samples not yet collected when the run ended (under load, once).
    assertTrue(
        declines.summary.matches(
            "Site 'samples' declined \\d+ % of its \\d+ decisions "
                + "\\(\\d+\\): the heap tier's budget of [0-9.]+ (B|KiB|MiB) was bound by the heap "
                + "\\(-Xmx 256 MiB\\) x heap_max_usage 0\\.5\\..*"),
        declines.summary);
    assertTrue(declines.solution.contains("raise heap_max_usage"), declines.solution);
    // The demo's loader asks for a depth of 8: its first epoch, no batch priced yet, gets the
    // ring's fallback of 4, the second what it asked where the heap had room for the ring then.
    // Whether it had depends on whether the collector had taken the first epoch's samples by that
    // decision (a loaded machine collects later): the rule must say what the recording says.
    List<jdk.jfr.consumer.RecordedEvent> feed = new ArrayList<>();
    for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(demo)) {
      if (e.getEventType().getName().equals(org.flodl.budget.events.PrefetchDepthEvent.NAME)
          && e.getString(org.flodl.budget.events.EventFields.SITE).equals("feed")) {
        feed.add(e);
      }
    }
    feed.sort((a, b) -> a.getStartTime().compareTo(b.getStartTime()));
    assertEquals(2, feed.size(), feed.toString());
    assertEquals("UNPRICED_BATCH", feed.get(0).getString(REASON), feed.toString());
    assertEquals(4, feed.get(0).getLong(DEPTH), feed.toString());
    Rule depth = rules.get("flodl.PrefetchDepth");
    if (feed.get(1).getLong(DEPTH) == 8) {
      assertEquals("Information", depth.severity, depth.toString());
      assertTrue(
          depth.summary.contains(
              "'feed' (cpu) got as little as 4 where 8 was asked, in 1 of"
                  + " 2 decisions (no batch priced yet x1), then what it asked"),
          depth.summary);
    } else {
      System.out.println("jmc-demo: the second epoch's ring held " + feed.get(1));
      assertEquals("Warning", depth.severity, depth.toString());
      assertTrue(
          depth.summary.contains(
              "'feed' (cpu) got as little as "
                  + Math.min(4, feed.get(1).getLong(DEPTH))
                  + " where 8 was asked, in 2 of 2 decisions ("),
          depth.summary);
      assertTrue(
          depth.summary.contains(Findings.reason(feed.get(1).getString(REASON)) + " x1"),
          depth.summary);
      assertTrue(depth.solution.contains("Name the site's batch method"), depth.solution);
    }
    assertEquals("OK", rules.get("flodl.Weaving").severity, rules.get("flodl.Weaving").summary);
    assertEquals("OK", rules.get("flodl.Pricing").severity);
    assertEquals("OK", rules.get("flodl.Materialized").severity);
    assertSameAsReport(demo, rules);
  }

  @Test
  void observeModeSaysWouldDecline() throws Exception {
    Path file = ChildJvm.WORK.resolve("jmc-observe.jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    Path sites = Sites.write("jmc-observe", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("jmc-observe", Jdk.JDK17)
            .jvm("-Xmx1g")
            .agent("sites=" + sites + ",mode=observe,heap_max_usage=0.1,record=" + file)
            .run(
                "com.acme.it.CacheApp",
                "--samples=200",
                "--sample-bytes=1048576",
                "--evict-at-end");
    assertEquals(0, r.exitCode, r.toString());
    Map<String, Rule> rules = rulesReport(file);
    Rule declines = rules.get("flodl.Declines");
    assertEquals("Warning", declines.severity, declines.toString());
    assertTrue(declines.summary.contains("WOULD_DECLINE in observe mode"), declines.summary);
    assertSameAsReport(file, rules);
  }

  @Test
  void theDjlAppsDepthsAreWhatItAskedAndNothingElseIsFound() throws Exception {
    ChildJvm.Result r = AppJvm.DJL.run("jmc-djl", "djl=on", "com.acme.djl.TrainDjl", "--epochs=3");
    assertEquals(0, r.exitCode, r.toString());
    Path file = r.recording.toAbsolutePath(); // record=, as AppJvm runs the agent
    Map<String, Rule> rules = rulesReport(file);
    Rule depth = rules.get("flodl.PrefetchDepth");
    assertEquals("OK", depth.severity, depth.toString());
    assertTrue(
        depth.summary.startsWith(
            "Every prefetch depth was what the application asked (3 " + "decisions)"),
        depth.summary);
    assertEquals(
        "Not Applicable", rules.get("flodl.Declines").severity, "no cache site in the DJL app");
    for (String id : List.of("flodl.Weaving", "flodl.Recording")) {
      assertEquals("OK", rules.get(id).severity, rules.get(id).toString());
    }
    // A run of a second or two may end before the first probe reading: OK or NA, never a warning.
    assertFalse(
        rules.get("flodl.Memory").severity.equals("Warning"), rules.get("flodl.Memory").toString());
    assertSameAsReport(file, rules);
  }

  @Test
  void anIdleRunIsNeverAWarning() throws Exception {
    // The agent attached with nothing to budget: no site, the app's cache untouched.
    Path file = ChildJvm.WORK.resolve("jmc-idle.jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    ChildJvm.Result r =
        ChildJvm.on("jmc-idle", Jdk.JDK17)
            .agent("record=" + file)
            .run("com.acme.it.CacheApp", "--samples=0");
    assertEquals(0, r.exitCode, r.toString());
    Map<String, Rule> rules = rulesReport(file);
    for (Rule rule : rules.values()) {
      assertFalse(rule.severity.equals("Warning"), rule.toString());
    }
    assertEquals("Not Applicable", rules.get("flodl.Declines").severity);
    assertSameAsReport(file, rules);
  }

  @Test
  void aRecordingOfTheAgentsJfcGivesWhatRecordGives() throws Exception {
    Path file = ChildJvm.WORK.resolve("jmc-jfc.jfr").toAbsolutePath();
    Files.deleteIfExists(file);
    Path jfc = ChildJvm.WORK.resolve("flodl-budget.jfc").toAbsolutePath();
    try (java.util.jar.JarFile in = new java.util.jar.JarFile(ChildJvm.AGENT_JAR.toFile())) {
      Files.write(jfc, in.getInputStream(in.getEntry("flodl-budget.jfc")).readAllBytes());
    }
    ChildJvm.Result r =
        ChildJvm.on("jmc-jfc", Jdk.JDK17)
            .jvm(
                "-Xmx256m",
                "-XX:StartFlightRecording:filename="
                    + file
                    + ",settings="
                    + jfc
                    + ",dumponexit=true")
            .classPath(LOADER)
            .agent("sites=" + LOADER_SITES)
            .timeout(120)
            .run("com.acme.train.TrainMain", DEMO_ARGS);
    assertEquals(0, r.exitCode, r.toString());
    Map<String, Rule> viaJfc = rulesReport(file);
    Map<String, Rule> viaRecord = rulesReport(demo);
    // Two runs of one scenario: the same findings but where the heap's state at a moment decides
    // (whether a probe reading caught held over a moving budget; whether the second epoch's
    // priced ring fits the request, which is the heap's budget then: a CI run saw it fit in one
    // run and not in the other); JMC's own rules see two different runs.
    assertFalse(viaJfc.get("flodl.Memory").severity.equals("Warning"), viaJfc.toString());
    for (String id : viaRecord.keySet()) {
      if (id.startsWith("flodl.")
          && !id.equals("flodl.Memory")
          && !id.equals("flodl.PrefetchDepth")) {
        assertEquals(
            viaRecord.get(id).severity,
            viaJfc.get(id).severity,
            id + ": " + viaRecord.get(id) + " vs " + viaJfc.get(id));
      }
    }
    // The depth's finding: the same decisions, the first one the same (no batch priced yet).
    for (Map<String, Rule> rules : List.of(viaRecord, viaJfc)) {
      String depth = rules.get("flodl.PrefetchDepth").summary;
      assertTrue(
          depth.contains("'feed' (cpu)")
              && depth.contains("of 2 decisions")
              && depth.contains("no batch priced yet"),
          depth);
    }
    // The same decisions, to the sample: the declines' summary differs at most in its numbers.
    String amounts = "[0-9][0-9.,]*( (B|KiB|MiB|GiB|TiB))?";
    assertEquals(
        viaRecord.get("flodl.Declines").summary.replaceAll(amounts, "N"),
        viaJfc.get("flodl.Declines").summary.replaceAll(amounts, "N"));
  }

  /**
   * The jar is what Mission Control's application loads from {@code dropins/}: an OSGi bundle, a
   * singleton (Equinox reads the plugin.xml of singletons only), requiring JMC's rules bundle,
   * whose plugin.xml contributes to the rules' extension point and whose service file names every
   * rule it carries; the findings inside it, JMC's own classes not.
   */
  @Test
  void theJarIsTheBundleMissionControlsApplicationLoads() throws Exception {
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(JMC_RULES.toFile())) {
      java.util.jar.Attributes m = jar.getManifest().getMainAttributes();
      assertEquals("2", m.getValue("Bundle-ManifestVersion"));
      assertEquals("org.flodl.budget.jmc.rules;singleton:=true", m.getValue("Bundle-SymbolicName"));
      assertTrue(
          m.getValue("Bundle-Version").matches("\\d+\\.\\d+\\.\\d+"), m.getValue("Bundle-Version"));
      assertTrue(
          m.getValue("Require-Bundle").contains("org.openjdk.jmc.flightrecorder.rules;"),
          m.getValue("Require-Bundle"));
      String plugin =
          new String(
              jar.getInputStream(jar.getEntry("plugin.xml")).readAllBytes(),
              StandardCharsets.UTF_8);
      assertTrue(
          plugin.contains("point=\"org.openjdk.jmc.flightrecorder.rules.ruleProvider\""), plugin);
      List<String> services =
          new String(
                  jar.getInputStream(
                          jar.getEntry(
                              "META-INF/services/org.openjdk.jmc.flightrecorder.rules.IRule"))
                      .readAllBytes(),
                  StandardCharsets.UTF_8)
              .lines()
              .filter(l -> !l.isBlank())
              .toList();
      assertEquals(7, services.size(), services.toString());
      for (String cls : services) {
        assertTrue(jar.getEntry(cls.replace('.', '/') + ".class") != null, cls);
      }
      assertTrue(
          jar.getEntry("org/flodl/budget/findings/Findings.class") != null
              && jar.getEntry("org/flodl/budget/policy/Sizes.class") != null,
          "the findings inside the bundle, and what they need");
      assertTrue(
          jar.stream().noneMatch(e -> e.getName().startsWith("org/openjdk/")),
          "JMC's own classes are the application's");
    }
  }

  /** One rule's result in JMC's report. */
  record Rule(
      String id,
      String name,
      String severity,
      String summary,
      String explanation,
      String solution) {}

  /**
   * Returns JMC's {@code JfrRulesReport -format xml -verbose -min ok} of {@code file}, by rule id,
   * after asserting that no rule (JMC's or flodl's) failed and that flodl's seven are there.
   */
  static Map<String, Rule> rulesReport(Path file) throws Exception {
    List<String> cp = new ArrayList<>();
    for (String cls :
        List.of(
            "org.openjdk.jmc.flightrecorder.rules.report.JfrRulesReport",
            "org.openjdk.jmc.flightrecorder.rules.jdk.general.DMSIncidentRule",
            "org.openjdk.jmc.flightrecorder.JfrLoaderToolkit",
            "org.openjdk.jmc.common.item.IItem",
            "org.owasp.encoder.Encode",
            "net.jpountz.lz4.LZ4Factory")) {
      cp.add(
          Path.of(Class.forName(cls).getProtectionDomain().getCodeSource().getLocation().toURI())
              .toString());
    }
    assertTrue(Files.isRegularFile(JMC_RULES), "the rules jar is not built: " + JMC_RULES);
    cp.add(JMC_RULES.toAbsolutePath().toString()); // as it ships: the findings inside it
    Process p =
        new ProcessBuilder(
                Jdk.JDK17.java().toString(),
                "-cp",
                String.join(File.pathSeparator, cp),
                "org.openjdk.jmc.flightrecorder.rules.report.JfrRulesReport",
                "-format",
                "xml",
                "-min",
                "ok",
                "-verbose",
                file.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    byte[] xml = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "JfrRulesReport did not finish");
    assertEquals(0, p.exitValue(), new String(xml, StandardCharsets.UTF_8));
    Files.write(Path.of(file + ".rules.xml"), xml);
    Document doc =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml));
    NodeList reports = doc.getElementsByTagName("report");
    for (int i = 0; i < reports.getLength(); i++) {
      for (org.w3c.dom.Node n = reports.item(i).getFirstChild();
          n != null;
          n = n.getNextSibling()) {
        assertFalse(
            n.getNodeName().equals("error"),
            "JMC could not read "
                + file
                + ": "
                + n.getTextContent().lines().findFirst().orElse(""));
      }
    }
    Map<String, Rule> rules = new LinkedHashMap<>();
    NodeList nodes = doc.getElementsByTagName("rule");
    List<String> errors = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      String id = child(e, "id");
      if (!child(e, "error").isEmpty()) {
        errors.add(id + ": " + child(e, "error").lines().findFirst().orElse(""));
      }
      rules.put(
          id,
          new Rule(
              id,
              child(e, "name"),
              child(e, "severity"),
              child(e, "summary"),
              child(e, "explanation"),
              child(e, "solution")));
    }
    assertEquals(List.of(), errors, "no rule may fail on " + file);
    assertTrue(rules.size() > 15, "JMC's own rules ran too: " + rules.keySet());
    for (String id :
        List.of(
            "flodl.Declines",
            "flodl.Materialized",
            "flodl.PrefetchDepth",
            "flodl.Weaving",
            "flodl.Pricing",
            "flodl.Memory",
            "flodl.Recording")) {
      if (!rules.containsKey(id)) {
        // -min ok leaves out Not Applicable results: say so in the map, to assert on
        rules.put(id, new Rule(id, "", "Not Applicable", "", "", ""));
      }
    }
    return rules;
  }

  private static String child(Element e, String tag) {
    NodeList n = e.getElementsByTagName(tag);
    return n.getLength() == 0 ? "" : n.item(0).getTextContent().trim();
  }

  /** Asserts that the agent's report prints each flodl finding JMC showed, word for word. */
  static void assertSameAsReport(Path file, Map<String, Rule> rules) throws Exception {
    String out = ChildJvm.report(file);
    for (Rule r : rules.values()) {
      if (r.id.startsWith("flodl.") && !r.summary.isEmpty()) {
        String sev =
            switch (r.severity) {
              case "Warning" -> "WARNING";
              case "Information" -> "INFO";
              case "OK" -> "OK";
              default -> "NA";
            };
        assertTrue(
            out.contains("[" + sev + "] " + r.name + ": " + r.summary),
            "the report says what JMC says: ["
                + sev
                + "] "
                + r.name
                + ": "
                + r.summary
                + "\n"
                + out);
      }
    }
  }
}
