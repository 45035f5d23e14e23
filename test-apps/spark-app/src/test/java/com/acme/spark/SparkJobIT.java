package com.acme.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs the Spark job as a child JVM, the way a user launches a local-mode driver, with the loader app
 * shipped through {@code spark.jars} so Spark's executor class loader, not the application class loader,
 * defines {@code com.acme.data.SampleCache}. Without the agent the job must complete with every sample
 * kept; with the agent jar built ({@code agent/target/flodl-budget-agent.jar}) the job runs under
 * {@code -javaagent} with the loader app's sites file and a heap the samples overflow, and the recording
 * must show the cache class woven in Spark's loader and the budget declining samples. Needs only files:
 * the system properties {@code spark.app.*} that failsafe sets name them, so the test can run from any
 * module built after this one.
 */
@Tag("slow") // a real engine, a cluster or many child JVMs: left out by -Pfast
class SparkJobIT {

    /** Samples per partition for the run with the agent: 2 x 1600 x 256 KiB = 800 MiB, over the 768 MiB heap. */
    private static final int AGENT_SAMPLES = 1600;
    private static final String HEAP = "-Xmx768m";
    private static final String SPARK_LOADER = "org.apache.spark.util.MutableURLClassLoader";
    private static final long CHILD_TIMEOUT_SECONDS = 300;
    /** The job's main class, named rather than referenced so this test needs only the files the build leaves. */
    private static final String MAIN_CLASS = "com.acme.spark.SparkJob";

    private final Path workDir = Paths.get(property("spark.app.workDir"));

    @Test
    void jobRunsWithTheLoaderAppInSparksExecutorClassLoader() throws Exception {
        Run run = runJob("plain", List.of(), List.of());
        assertEquals(0, run.exit, run.describe());
        assertTrue(run.stdout.contains("not on the driver's class path"), run.describe());
        List<String> partitions = run.partitionLines();
        assertEquals(2, partitions.size(), run.describe());
        for (String line : partitions) {
            assertEquals(SPARK_LOADER, field(line, "loader"), line);
            assertEquals(field(line, "offered"), field(line, "kept"),
                    "without the agent the cache keeps every sample: " + line);
        }
        assertTrue(run.complete(), run.describe());
    }

    @Test
    void agentBudgetsTheCacheInsideSparkTasks() throws Exception {
        Path agentJar = Paths.get(property("spark.app.agentJar")).normalize();
        if (!Files.isRegularFile(agentJar)) {
            System.out.println("SparkJobIT: SKIPPED the agent part: " + agentJar + " is not built yet"
                    + " (test-apps builds before agent in the reactor)");
            Assumptions.abort("agent jar not built: " + agentJar);
        }
        Path sites = Paths.get(property("spark.app.sites")).normalize();
        Path recording = workDir.resolve("spark.jfr");
        Files.deleteIfExists(recording);
        Run run = runJob("agent",
                List.of("-javaagent:" + agentJar + "=sites=" + sites + ",record=" + recording),
                List.of("--samples=" + AGENT_SAMPLES));
        assertEquals(0, run.exit, run.describe());
        assertTrue(run.complete(), run.describe());
        long kept = 0;
        long offered = 0;
        for (String line : run.partitionLines()) {
            assertEquals(SPARK_LOADER, field(line, "loader"), line);
            kept += Long.parseLong(field(line, "kept"));
            offered += Long.parseLong(field(line, "offered"));
        }
        assertEquals(2L * AGENT_SAMPLES, offered, run.describe());
        assertTrue(kept > 0 && kept < offered, "the budget binds but admits some: kept " + kept + " of " + offered);

        List<RecordedEvent> events = RecordingFile.readAllEvents(recording);
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("flodl.agent.Instrumented")
                        && "com.acme.data.SampleCache".equals(e.getString("className"))
                        && "WOVEN".equals(e.getString("outcome"))),
                "SampleCache woven in Spark's class loader: " + names(events, "flodl.agent.Instrumented"));
        List<RecordedEvent> admissions = events.stream()
                .filter(e -> e.getEventType().getName().equals("flodl.budget.CacheAdmission"))
                .filter(e -> "samples".equals(e.getString("site")))
                .collect(Collectors.toList());
        // record= samples the per-decision events; each stands for the decisions of its kind since
        // the last (its weight), and the site summaries count every one.
        long declined = admissions.stream().filter(e -> "DECLINE".equals(e.getString("decision")))
                .mapToLong(e -> e.getLong("decisions")).sum();
        long admitted = admissions.stream().filter(e -> e.getString("decision").startsWith("ADMIT"))
                .mapToLong(e -> e.getLong("decisions")).sum();
        assertEquals(offered, admitted + declined, "one decision per put");
        long summarized = events.stream()
                .filter(e -> e.getEventType().getName().equals("flodl.budget.SiteSummary"))
                .filter(e -> "samples".equals(e.getString("site")))
                .mapToLong(e -> e.getLong("admissions") + e.getLong("declines")).sum();
        assertEquals(offered, summarized, "the site summaries count every put");
        assertEquals(kept, admitted, "the cache holds exactly the admitted samples");
        assertEquals(offered - kept, declined, "every sample the cache lacks was declined");
        for (RecordedEvent e : admissions) {
            if (e.getString("decision").startsWith("ADMIT")) {
                assertTrue(e.getLong("heldBytes") <= e.getLong("budgetBytes"), "admission within budget: " + e);
            }
        }
    }

    /** Returns the child JVM's run of the job with {@code jvmArgs} before the main class and {@code jobArgs} after. */
    private Run runJob(String name, List<String> jvmArgs, List<String> jobArgs) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path localDir = Files.createDirectories(workDir.resolve(name + "-local"));
        String classpath = property("spark.app.classes") + java.io.File.pathSeparator
                + Files.readString(Paths.get(property("spark.app.classpath"))).trim();
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("@" + property("spark.app.jvmOptions"));
        command.add(HEAP);
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(classpath);
        command.add(MAIN_CLASS);
        command.add("--loader-jar=" + property("spark.app.loaderJar"));
        command.add("--local-dir=" + localDir);
        command.addAll(jobArgs);
        Path out = workDir.resolve(name + ".out");
        Path err = workDir.resolve(name + ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        builder.environment().keySet().removeIf(k -> k.equals("JAVA_TOOL_OPTIONS")
                || k.equals("_JAVA_OPTIONS") || k.equals("JDK_JAVA_OPTIONS"));
        long started = System.nanoTime();
        Process process = builder.start();
        boolean exited = process.waitFor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        Run run = new Run(exited ? process.exitValue() : -1, Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
        System.out.println("SparkJobIT: " + name + " run took " + millis + " ms (exit " + run.exit + ")");
        System.out.print(run.stdout);
        return run;
    }

    private static String names(List<RecordedEvent> events, String type) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type))
                .map(e -> e.getString("className") + ":" + e.getString("outcome"))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    /** Returns the value of {@code key=} in a {@code key=value key=value} line. */
    private static String field(String line, String key) {
        for (String part : line.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new AssertionError("no " + key + "= in: " + line);
    }

    private static String property(String key) {
        String value = System.getProperty(key);
        if (value == null) {
            throw new IllegalStateException(key + " is not set; run through failsafe (mvn verify)");
        }
        return value;
    }

    /** One child run: its exit status and what it printed. */
    private static final class Run {
        final int exit;
        final String stdout;
        final String stderr;

        Run(int exit, String stdout, String stderr) {
            this.exit = exit;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        List<String> partitionLines() {
            return stdout.lines().filter(l -> l.startsWith("partition=")).collect(Collectors.toList());
        }

        boolean complete() {
            return stdout.lines().anyMatch(l -> l.startsWith("SPARK JOB COMPLETE"));
        }

        String describe() {
            String tail = stderr.length() > 4000 ? stderr.substring(stderr.length() - 4000) : stderr;
            return "exit " + exit + "\n--- stdout\n" + stdout + "--- stderr (tail)\n" + tail;
        }
    }
}
