package org.flodl.budget.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Whether a decision costs more when a JVM has more sites: the same put and evict on {@link
 * BenchSites}'s first site, in forks whose sites file names 1, 10 and 100 sites (all woven, only
 * the first called). {@link #main} runs the three forks side by side and prints each one's cost:
 *
 * <pre>
 * java -Djmh.ignoreLock=true -cp benchmarks/target/benchmarks.jar \
 *      org.flodl.budget.benchmarks.SitesScaleBenchmark -f 1 -wi 15 -i 5 -w 1s -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SitesScaleBenchmark {
  private static final int KEYS = 1024;
  private final BenchSites sites = new BenchSites();
  private final Integer[] keys = new Integer[KEYS];
  private final byte[][] values = new byte[KEYS][];
  private int next;

  @Setup
  public void fill() {
    for (int i = 0; i < KEYS; i++) {
      keys[i] = i;
      values[i] = new byte[1024];
    }
  }

  /** Returns the value evicted after a put on the first of the sites. */
  @Benchmark
  public Object firstSitePut() {
    int k = next++ & (KEYS - 1);
    sites.put0(keys[k], values[k]);
    return sites.evict0(keys[k]);
  }

  /** Runs the forks (1, 10 and 100 sites) and prints their costs; arguments are JMH's. */
  public static void main(String[] args)
      throws IOException, RunnerException, CommandLineOptionException {
    Path agent =
        Path.of(System.getProperty("flodl.bench.agentJar", "agent/target/flodl-budget-agent.jar"))
            .toAbsolutePath();
    if (!Files.isRegularFile(agent)) {
      throw new IllegalArgumentException(
          "no " + agent + " (build the agent; run from the repo root)");
    }
    Path dir = Files.createTempDirectory("sites-scale-bench");
    CommandLineOptions cli = new CommandLineOptions(args);
    Map<Integer, double[]> costs = new LinkedHashMap<>();
    for (int n : new int[] {1, 10, 100}) {
      Path file = Files.writeString(dir.resolve("sites-" + n + ".properties"), BenchSites.sites(n));
      Collection<RunResult> results =
          new Runner(
                  new OptionsBuilder()
                      .parent(cli)
                      .include(SitesScaleBenchmark.class.getName() + "\\.firstSitePut$")
                      .jvmArgsAppend("-javaagent:" + agent + "=sites=" + file)
                      .build())
              .run();
      RunResult r = results.iterator().next();
      costs.put(
          n, new double[] {r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()});
    }
    System.out.println();
    System.out.println("| sites in the JVM | put + evict on the first (ns/op) |");
    System.out.println("|---:|---:|");
    costs.forEach(
        (n, c) ->
            System.out.println(String.format(Locale.ROOT, "| %d | %.1f ± %.1f |", n, c[0], c[1])));
  }
}
