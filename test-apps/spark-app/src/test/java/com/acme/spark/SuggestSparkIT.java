package com.acme.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code suggest} on Spark's jars (the job's runtime class path: spark-core and its 70-odd
 * dependencies): it reads none of their classes' bytes (which keeps it to seconds) and suggests no
 * site inside them, while the job's own shipped jar (the loader app) still gets its sites.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class SuggestSparkIT {

  private static String run(String... paths) throws Exception {
    Path agent = Paths.get(System.getProperty("spark.app.agentJar"));
    assertTrue(Files.isRegularFile(agent), "no agent jar at " + agent);
    List<String> cmd = new java.util.ArrayList<>(List.of(
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
        agent.toString(), "suggest"));
    cmd.addAll(List.of(paths));
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS));
    long millis = (System.nanoTime() - t0) / 1_000_000;
    assertEquals(0, p.exitValue(), out);
    // Printed, not asserted: what keeps it to seconds is that it reads no library's class
    // (the header's count, asserted below), which a loaded machine's clock does not change.
    System.out.println("suggest on " + paths.length + " path(s): " + millis + " ms");
    return out;
  }

  @Test
  void sparksJarsGetNoSiteAndTheJobsOwnJarGetsItsSites() throws Exception {
    String classPath = new String(Files.readAllBytes(
        Paths.get(System.getProperty("spark.app.classpath"))), StandardCharsets.UTF_8).trim();
    String spark = run(classPath);
    List<String> sites = spark.lines().filter(l -> l.startsWith("site.") || l.startsWith("presets"))
        .collect(Collectors.toList());
    assertEquals(List.of(), sites, spark);
    assertTrue(spark.contains("No cache-admit or prefetch-depth site found"), spark);
    // Spark's tens of thousands of classes named, none of them read: they are libraries.
    java.util.regex.Matcher header = java.util.regex.Pattern
        .compile("(\\d+) classes, (\\d+) of them the application's and read")
        .matcher(spark.replaceAll("\\n#\\s+", " ")); // the header's comment lines as one
    assertTrue(header.find(), spark);
    assertTrue(Integer.parseInt(header.group(1)) > 10_000, header.group());
    assertEquals("0", header.group(2), header.group());
    String withJob = run(classPath + java.io.File.pathSeparator
        + System.getProperty("spark.app.loaderJar"));
    assertTrue(withJob.contains("site.samplecache-entries.kind"), withJob);
  }
}
