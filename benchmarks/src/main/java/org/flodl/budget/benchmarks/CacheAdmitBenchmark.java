package org.flodl.budget.benchmarks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordingFile;
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
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The agent's cost on a cache's hot path: one put of a 1 KiB {@code byte[]} and the evict that lets
 * it go, through each kind of site: a method site on the class that declares the methods ({@link
 * BenchSampleCache}), an interface site ({@link BenchStore}: the implementation's bodies woven), a
 * call site ({@link BenchLoader}: its {@code Map.put} and {@code Map.remove} calls woven) and a
 * preset (a Caffeine cache's {@code put} and {@code invalidate}, and its map view's {@code
 * computeIfAbsent} and {@code remove}, and a put into a cache with a removal listener, {@link
 * #listenerPut}, under {@code presets=caffeine}), against the same put and remove on a plain {@code
 * ConcurrentHashMap} (and, for the preset, a Caffeine cache bounded by a byte weigher, {@link
 * #weigherPut}). Woven, each put is priced, reserved against the heap budget and tracked, each
 * evict released, an event each when recorded. {@link #main} runs every variant three times side by
 * side, in forks without the agent, with {@code -javaagent:<jar>=sites=<file>,presets=caffeine} and
 * no recording, and with the agent and a recording of flodl-budget.jfc (the events {@code record=}
 * records), then prints each variant's cost with the agent over its cost in the fork without it.
 * Run from the repository root:
 *
 * <pre>
 * mvn -B -q -pl agent,benchmarks -am package -DskipTests
 * java -Dflodl.bench.agentJar=agent/target/flodl-budget-agent.jar \
 *      -Dflodl.bench.jfc=jfr-events/src/main/resources/flodl-budget.jfc \
 *      -cp benchmarks/target/benchmarks.jar org.flodl.budget.benchmarks.CacheAdmitBenchmark \
 *      -f 1 -wi 15 -i 5 -w 1s -r 1s
 * </pre>
 *
 * (the two properties default to those paths; trailing arguments are JMH's; the woven forks need 10
 * to 15 s of warm-up on 2 loaded cores, hence {@code -wi 15}). {@code java -jar benchmarks.jar
 * CacheAdmitBenchmark} alone runs only the fork without the agent. {@code
 * -Dflodl.bench.variants=plainPut,wovenPut} and {@code -Dflodl.bench.forks=agent} (of {@code none},
 * {@code agent}, {@code recording}) narrow the run; {@code -Dflodl.bench.beforeJar=JAR} adds a fork
 * with an earlier build of the agent, for a change measured side by side (several, comma-separated,
 * each named by its folder); {@code -Dflodl.bench.rounds=R} runs every fork R times in turn (with
 * {@code -f 1}, one JVM a fork and round) and prints the medians, so that a machine whose speed
 * drifts during the run moves all forks alike; with JMH's {@code -t N} each variant runs on N
 * threads, each with its own cache (the agent's ledger and identity table shared), the scaling runs
 * of docs/BENCHMARKS.md. {@code virtualThreadPlainPut} and {@code virtualThreadCallSitePut} (not in
 * the default variants; JDK 21+, so run the command with that JDK's {@code java}) make each put and
 * evict on a new virtual thread: what a decision costs a thread that decides once, its gate state
 * included ({@code -prof gc} gives the bytes it allocates).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CacheAdmitBenchmark {
  /**
   * The keys and values each thread cycles through, a power of two ({@code -Dflodl.bench.keys},
   * default 1,024: 1 MiB of values, more than a core's L1 and L2 on the machines measured).
   */
  private static final int KEYS =
      Integer.highestOneBit(Math.max(1, Integer.getInteger("flodl.bench.keys", 1024)));

  private final ConcurrentHashMap<Object, Object> map = new ConcurrentHashMap<>();
  private final BenchSampleCache cache = new BenchSampleCache();
  private final BenchStore store = new BenchStore.Map();
  private final BenchLoader loader = new BenchLoader();
  private final Cache<Object, Object> caffeine = Caffeine.newBuilder().build();
  private final Map<Object, Object> caffeineMap = Caffeine.newBuilder().build().asMap();

  /** The value of a key, as a loader computes it: this thread's array for it, made in setup. */
  private final java.util.function.Function<Object, Object> valueOfKey =
      key -> this.values[(Integer) key];

  /**
   * A cache with a witness, as a job that closes what leaves its cache builds one: a removal
   * listener, and a count bound the budget may steer.
   */
  private final Cache<Object, Object> listened =
      Caffeine.newBuilder()
          .maximumSize(1_000_000)
          .removalListener(
              (Object k, Object v, com.github.benmanes.caffeine.cache.RemovalCause c) -> {})
          .executor(Runnable::run)
          .build();

  /** What a user bounds by hand instead: a maximum weight and a weigher of the value's bytes. */
  private final Cache<Object, Object> weighed =
      Caffeine.newBuilder()
          .maximumWeight(1L << 30)
          .weigher((Object k, Object v) -> ((byte[]) v).length)
          .executor(Runnable::run)
          .build();

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

  /** Returns the value removed after a put on a plain ConcurrentHashMap. */
  @Benchmark
  public Object plainPut() {
    int k = next++ & (KEYS - 1);
    map.put(keys[k], values[k]);
    return map.remove(keys[k]);
  }

  /**
   * Returns the value evicted after a put on the cache the sites file names (woven with the agent).
   */
  @Benchmark
  public Object wovenPut() {
    int k = next++ & (KEYS - 1);
    cache.put(keys[k], values[k]);
    return cache.evict(keys[k]);
  }

  /** Returns the value evicted after a put through the interface the interface site names. */
  @Benchmark
  public Object interfacePut() {
    int k = next++ & (KEYS - 1);
    store.put(keys[k], values[k]);
    return store.evict(keys[k]);
  }

  /** Returns the value dropped after a put, calls the call site weaves in BenchLoader. */
  @Benchmark
  public Object callSitePut() {
    int k = next++ & (KEYS - 1);
    loader.keep(keys[k], values[k]);
    return loader.drop(keys[k]);
  }

  /**
   * Returns the cache after a put and an invalidate on a Caffeine cache, woven by the caffeine
   * preset (its invalidate reaches the map view's {@code remove}, which releases the value).
   */
  @Benchmark
  public Object presetPut() {
    int k = next++ & (KEYS - 1);
    caffeine.put(keys[k], values[k]);
    caffeine.invalidate(keys[k]);
    return caffeine;
  }

  /**
   * Returns the cache after a put and an invalidate on a Caffeine cache with a removal listener (a
   * witness: the budget would not decline it), woven by the caffeine preset as {@link #presetPut}.
   */
  @Benchmark
  public Object listenerPut() {
    int k = next++ & (KEYS - 1);
    listened.put(keys[k], values[k]);
    listened.invalidate(keys[k]);
    return listened;
  }

  /**
   * Returns the value removed after a {@code computeIfAbsent} on a Caffeine cache's map view, woven
   * by the caffeine preset: the value the call returns is priced and admitted there, and the map
   * view's {@code remove} releases it.
   */
  @Benchmark
  public Object presetComputeIfAbsent() {
    int k = next++ & (KEYS - 1);
    caffeineMap.computeIfAbsent(keys[k], valueOfKey);
    return caffeineMap.remove(keys[k]);
  }

  /**
   * Returns the cache after a put and an invalidate on a Caffeine cache bounded by a byte weigher
   * (what a user would pick instead of the agent; under the agent's fork it is woven by the preset
   * too, so its figure to read is the no-agent fork's).
   */
  @Benchmark
  public Object weigherPut() {
    int k = next++ & (KEYS - 1);
    weighed.put(keys[k], values[k]);
    weighed.invalidate(keys[k]);
    return weighed;
  }

  /** {@code Thread.startVirtualThread(Runnable)} where the JVM has it (JDK 21+), else null. */
  private static final java.lang.invoke.MethodHandle START_VIRTUAL = startVirtual();

  private static java.lang.invoke.MethodHandle startVirtual() {
    try {
      return java.lang.invoke.MethodHandles.publicLookup()
          .findStatic(
              Thread.class,
              "startVirtualThread",
              java.lang.invoke.MethodType.methodType(Thread.class, Runnable.class));
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }

  /** Runs {@code r} on a new virtual thread and waits for it (JDK 21+; JDK 17 throws). */
  private static void onVirtualThread(Runnable r) throws Throwable {
    if (START_VIRTUAL == null) {
      throw new UnsupportedOperationException("the virtual-thread variants need JDK 21+");
    }
    ((Thread) START_VIRTUAL.invokeExact(r)).join();
  }

  private Object last;

  /**
   * Returns the value removed after a put on a plain ConcurrentHashMap from a new virtual thread (a
   * loader with a virtual thread per sample; the base of {@link #virtualThreadCallSitePut}).
   */
  @Benchmark
  public Object virtualThreadPlainPut() throws Throwable {
    int k = next++ & (KEYS - 1);
    onVirtualThread(
        () -> {
          map.put(keys[k], values[k]);
          last = map.remove(keys[k]);
        });
    return last;
  }

  /**
   * Returns the value dropped after the call site's put and remove (BenchLoader) from a new virtual
   * thread: each decision a thread's first, its gate state made and dropped with it.
   */
  @Benchmark
  public Object virtualThreadCallSitePut() throws Throwable {
    int k = next++ & (KEYS - 1);
    onVirtualThread(
        () -> {
          loader.keep(keys[k], values[k]);
          last = loader.drop(keys[k]);
        });
    return last;
  }

  /** Runs the three forks side by side and prints the table; arguments are JMH's. */
  public static void main(String[] args)
      throws IOException, RunnerException, CommandLineOptionException {
    Path agent =
        Path.of(System.getProperty("flodl.bench.agentJar", "agent/target/flodl-budget-agent.jar"))
            .toAbsolutePath();
    Path jfc =
        Path.of(
                System.getProperty(
                    "flodl.bench.jfc", "jfr-events/src/main/resources/flodl-budget.jfc"))
            .toAbsolutePath();
    for (Path p : List.of(agent, jfc)) {
      if (!Files.isRegularFile(p)) {
        throw new IllegalArgumentException(
            "no " + p + " (build the agent; run from the repo root)");
      }
    }
    Path dir = Files.createTempDirectory("cache-admit-bench");
    Path sites =
        Files.writeString(
            dir.resolve("sites.properties"),
            BenchSampleCache.SITES + BenchStore.SITES + BenchLoader.SITES);
    Path jfr = dir.resolve("bench.jfr");
    String javaagent = "-javaagent:" + agent + "=sites=" + sites + ",presets=caffeine";
    List<String> wanted =
        List.of(System.getProperty("flodl.bench.forks", "none,agent,recording").split(","));
    Map<String, String[]> forks = new LinkedHashMap<>();
    if (wanted.contains("none")) {
      forks.put("no agent", new String[0]);
    }
    List<String> befores =
        List.of(System.getProperty("flodl.bench.beforeJar", "").split(",")).stream()
            .filter(b -> !b.isBlank())
            .toList();
    for (String before : befores) {
      if (!Path.of(before).getFileName().toString().equals(agent.getFileName().toString())) {
        // The manifest's Boot-Class-Path names the jar: renamed, it runs from the class path,
        // slower.
        throw new IllegalArgumentException(
            "flodl.bench.beforeJar must be named "
                + agent.getFileName()
                + " (in a folder of its own): "
                + before);
      }
      if (wanted.contains("agent")) { // an earlier build, side by side
        Path jar = Path.of(before).toAbsolutePath();
        String label =
            befores.size() == 1
                ? "before, no recording"
                : jar.getParent().getFileName() + ", no recording";
        if (forks.containsKey(label)) {
          throw new IllegalArgumentException(
              "two flodl.bench.beforeJar jars in folders named " + jar.getParent().getFileName());
        }
        forks.put(
            label, new String[] {"-javaagent:" + jar + "=sites=" + sites + ",presets=caffeine"});
      }
    }
    if (wanted.contains("agent")) {
      forks.put("agent, no recording", new String[] {javaagent});
    }
    if (wanted.contains("recording")) {
      forks.put(
          "agent, recording (flodl-budget.jfc)",
          new String[] {
            javaagent,
            "-XX:StartFlightRecording=settings="
                + jfc
                + ",filename="
                + jfr
                + ",maxsize=64m,dumponexit=true"
          });
    }

    CommandLineOptions cli = new CommandLineOptions(args);
    List<String> variants =
        List.of(
            System.getProperty(
                    "flodl.bench.variants",
                    "plainPut,wovenPut,interfacePut,callSitePut,presetPut,presetComputeIfAbsent,"
                        + "listenerPut,weigherPut")
                .split(","));
    // Each round runs every fork once, in turn (the order reversed every other round), so that a
    // machine whose speed drifts over the minutes of a run moves every fork alike.
    int rounds = Math.max(1, Integer.getInteger("flodl.bench.rounds", 1));
    Map<String, Map<String, List<double[]>>> table = new LinkedHashMap<>();
    forks.keySet().forEach(f -> table.put(f, new LinkedHashMap<>()));
    for (int round = 0; round < rounds; round++) {
      List<Map.Entry<String, String[]>> order = new ArrayList<>(forks.entrySet());
      if (round % 2 == 1) {
        java.util.Collections.reverse(order);
      }
      for (Map.Entry<String, String[]> fork : order) {
        ChainedOptionsBuilder o =
            new OptionsBuilder()
                .parent(cli)
                .include(
                    CacheAdmitBenchmark.class.getName()
                        + "\\.("
                        + String.join("|", variants)
                        + ")$")
                .jvmArgsAppend(withKeys(fork.getValue()));
        for (RunResult r : new Runner(o.build()).run()) {
          String label = r.getParams().getBenchmark();
          table
              .get(fork.getKey())
              .computeIfAbsent(label.substring(label.lastIndexOf('.') + 1), v -> new ArrayList<>())
              .add(
                  new double[] {
                    r.getPrimaryResult().getScore(), r.getPrimaryResult().getScoreError()
                  });
        }
      }
    }
    boolean admitted = recorded(jfr, "flodl.budget.CacheAdmission");
    boolean released = recorded(jfr, "flodl.budget.Release");

    List<String> lines = new ArrayList<>();
    List<String> forkNames = new ArrayList<>(table.keySet());
    StringBuilder head = new StringBuilder("| variant |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String f : forkNames) {
      head.append(' ').append(f).append(" ns/op |");
      rule.append("---:|");
    }
    for (String f : forkNames.subList(1, forkNames.size())) {
      head.append(' ').append(f).append(" − no agent |");
      rule.append("---:|");
    }
    lines.add(head.toString());
    lines.add(rule.toString());
    for (String v : variants) {
      StringBuilder line = new StringBuilder("| `" + v + "` |");
      List<double[]> base = table.get(forkNames.get(0)).getOrDefault(v, List.of());
      for (String f : forkNames) {
        line.append(' ').append(cell(table.get(f).getOrDefault(v, List.of()))).append(" |");
      }
      for (String f : forkNames.subList(1, forkNames.size())) {
        line.append(
            String.format(
                Locale.ROOT,
                " %+.0f ns |",
                medianDifference(table.get(f).getOrDefault(v, List.of()), base)));
      }
      lines.add(line.toString());
    }
    if (rounds > 1) {
      lines.add("");
      lines.add(
          rounds
              + " rounds, each fork once a round: each cell is the median of the rounds (their"
              + " least and most), each difference the median of the rounds' differences.");
    }
    if (wanted.contains("recording")) {
      lines.add("");
      lines.add(
          "The recording fork recorded flodl.budget.CacheAdmission: "
              + admitted
              + ", flodl.budget.Release: "
              + released
              + " (the woven put was decided and released).");
    }
    System.out.println();
    lines.forEach(System.out::println);
    if (wanted.contains("recording") && (!admitted || !released)) {
      System.out.println(
          "WARNING: no admission or release recorded: the agent did not weave the cache");
    }
  }

  /**
   * Returns one fork's figure: its score and error after one round, the median of its scores and
   * their range after several.
   */
  private static String cell(List<double[]> runs) {
    if (runs.isEmpty()) {
      return "NaN";
    }
    if (runs.size() == 1) {
      return String.format(Locale.ROOT, "%.1f ± %.1f", runs.get(0)[0], runs.get(0)[1]);
    }
    double[] scores = runs.stream().mapToDouble(x -> x[0]).sorted().toArray();
    return String.format(
        Locale.ROOT, "%.1f (%.1f-%.1f)", median(scores), scores[0], scores[scores.length - 1]);
  }

  /** Returns the median of the rounds' differences of {@code runs} over {@code base}. */
  private static double medianDifference(List<double[]> runs, List<double[]> base) {
    int n = Math.min(runs.size(), base.size());
    if (n == 0) {
      return Double.NaN;
    }
    double[] d = new double[n];
    for (int i = 0; i < n; i++) {
      d[i] = runs.get(i)[0] - base.get(i)[0];
    }
    java.util.Arrays.sort(d);
    return median(d);
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** Returns {@code args} and the keys property (JMH keeps only the last jvmArgsAppend). */
  private static String[] withKeys(String[] args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 1);
    all[args.length] = "-Dflodl.bench.keys=" + KEYS;
    return all;
  }

  private static boolean recorded(Path jfr, String event) throws IOException {
    if (!Files.exists(jfr)) {
      return false;
    }
    try (RecordingFile f = new RecordingFile(jfr)) {
      while (f.hasMoreEvents()) {
        if (f.readEvent().getEventType().getName().equals(event)) {
          return true;
        }
      }
    }
    return false;
  }
}
