package com.acme.spark;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * A small Spark job in local mode whose tasks fill the loader app's {@code com.acme.data.SampleCache}:
 * the loader app's jar is shipped with {@code spark.jars}, never put on the driver's class path, so the
 * cache class is loaded by the executor's own class loader, as user classes are on a cluster. Each
 * partition puts its samples in a fresh cache and reports how many the cache kept; the driver prints
 * one line per partition and {@code SPARK JOB COMPLETE}. Knows nothing of the agent.
 *
 * <p>Run (JDK 17 needs the module openings in {@code jvm.options}):
 * {@code java @test-apps/spark-app/jvm.options -Xmx768m -cp test-apps/spark-app/target/classes:$(cat
 * test-apps/spark-app/target/classpath.txt) com.acme.spark.SparkJob
 * --loader-jar=test-apps/spark-app/target/spark-jars/flodl-budget-loader-app.jar}
 */
public final class SparkJob {

    /** The loader app's cache, which the job must not see on its own class path. */
    static final String CACHE_CLASS = "com.acme.data.SampleCache";

    private SparkJob() {
    }

    /** Runs the job; exits 2 on a bad option or when the cache class is visible to the driver's class path. */
    public static void main(String[] args) {
        long started = System.nanoTime();
        JobOptions options;
        try {
            options = JobOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("spark-app: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (visibleToDriver()) {
            System.err.println("spark-app: " + CACHE_CLASS + " is on the driver's class path; ship the loader"
                    + " app with --loader-jar only, so Spark's executor class loader loads it");
            System.exit(2);
            return;
        }
        System.out.println("driver: " + CACHE_CLASS + " not on the driver's class path; shipping "
                + options.loaderJar + " with spark.jars");
        List<String> lines;
        try (JavaSparkContext sc = new JavaSparkContext(conf(options))) {
            sc.setLogLevel("WARN");
            List<Integer> partitions = new ArrayList<>();
            for (int p = 0; p < options.partitions; p++) {
                partitions.add(p);
            }
            lines = sc.parallelize(partitions, options.partitions)
                    .mapPartitionsWithIndex(
                            new CacheTask(options.samples, options.sampleBytes, options.paceMillis), false)
                    .collect();
        }
        long kept = 0;
        long offered = 0;
        for (String line : lines) {
            System.out.println(line);
            kept += Long.parseLong(field(line, "kept"));
            offered += Long.parseLong(field(line, "offered"));
        }
        System.out.printf(Locale.ROOT, "SPARK JOB COMPLETE partitions=%d kept=%d offered=%d millis=%d%n",
                lines.size(), kept, offered, (System.nanoTime() - started) / 1_000_000);
    }

    /**
     * Returns the Spark configuration: the master given (local mode by default), no UI, loopback only, the
     * loader app in spark.jars; other {@code spark.*} settings come from system properties ({@code -Dspark.x=y}),
     * as {@code SparkConf} reads them.
     */
    static SparkConf conf(JobOptions options) {
        return new SparkConf()
                .setAppName("flodl-budget-spark-app")
                .setMaster(options.master)
                .set("spark.jars", new File(options.loaderJar).getAbsoluteFile().toURI().toString())
                .set("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.local.dir", options.localDir)
                .set("spark.metrics.staticSources.enabled", "false");
    }

    /** Returns whether the cache class is reachable from the driver's own (application) class loader. */
    static boolean visibleToDriver() {
        try {
            Class.forName(CACHE_CLASS, false, ClassLoader.getSystemClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Returns the value of {@code key=} in a {@code key=value key=value} line. */
    static String field(String line, String key) {
        for (String part : line.split(" ")) {
            if (part.startsWith(key + "=")) {
                return part.substring(key.length() + 1);
            }
        }
        throw new IllegalStateException("no " + key + "= in: " + line);
    }
}
