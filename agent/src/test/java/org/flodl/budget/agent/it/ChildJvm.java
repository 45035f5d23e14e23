package org.flodl.budget.agent.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.testing.ChildProcess;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a test application in a child JVM the way users run the agent: {@code
 * -javaagent:target/flodl-budget-agent.jar=ARGS}, a flight recording dumped at exit, stdout and
 * stderr captured; a child that outlives its timeout is killed and fails the test.
 */
public final class ChildJvm {
  static final Path AGENT_JAR =
      Path.of(System.getProperty("flodl.it.agentJar", "target/flodl-budget-agent.jar"));
  static final Path APP_CLASSES =
      Path.of(System.getProperty("flodl.it.appClasses", "target/test-classes"));
  public static final Path WORK = Path.of(System.getProperty("flodl.it.workDir", "target/it-work"));

  /**
   * The newer JDK the smoke cases also run on: {@code -Dit.jdk25.home}, else {@code JAVA25_HOME},
   * else the newest JDK of 21 or later under {@code /usr/lib/jvm} (read from its {@code release}
   * file); null when there is none.
   */
  static final Path NEWER_JDK = newerJdk();

  private static Path newerJdk() {
    for (String given :
        new String[] {System.getProperty("flodl.it.jdk25"), System.getenv("JAVA25_HOME")}) {
      if (given != null && !given.isBlank()) {
        return Path.of(given.trim());
      }
    }
    Path best = null;
    int bestMajor = 20;
    try (java.util.stream.Stream<Path> homes = Files.list(Path.of("/usr/lib/jvm"))) {
      for (Path home : (Iterable<Path>) homes::iterator) {
        int major = major(home);
        if (major > bestMajor && Files.isExecutable(home.resolve("bin/java"))) {
          best = home;
          bestMajor = major;
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return best;
  }

  /** Returns the major version a JDK's {@code release} file names, or -1. */
  private static int major(Path home) {
    try {
      for (String line : Files.readAllLines(home.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring("JAVA_VERSION=".length()).replace("\"", "");
          int dot = v.indexOf('.');
          return Integer.parseInt(dot < 0 ? v : v.substring(0, dot));
        }
      }
    } catch (IOException | RuntimeException e) {
      return -1;
    }
    return -1;
  }

  /**
   * The JDKs the application JVM runs on: this one (17) for every test, and the newest JDK on the
   * machine (Temurin 25 here) for the smoke cases that take a {@code Jdk} parameter. Without one, a
   * smoke case is skipped with a visible line on a developer's machine and fails under CI ({@code
   * CI} set), where half a matrix must not pass for all of it.
   */
  public enum Jdk {
    JDK17,
    JDK25;

    /** Returns the java launcher, or aborts (fails under CI) when the newer JDK is missing. */
    public Path java() {
      if (this == JDK17) {
        return Path.of(System.getProperty("java.home"), "bin", "java");
      }
      Path java = NEWER_JDK == null ? null : NEWER_JDK.resolve("bin/java");
      if (java == null || !Files.isExecutable(java)) {
        String line =
            "no JDK 21+ for the smoke cases: "
                + (java == null ? "none under /usr/lib/jvm" : java + " is not there")
                + " (set -Dit.jdk25.home or JAVA25_HOME)";
        String ci = System.getenv("CI");
        if (ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false")) {
          Assertions.fail("CI: " + line);
        }
        System.out.println("SKIPPED on JDK 25: " + line);
        Assumptions.abort(line);
      }
      return java;
    }
  }

  private final List<String> command = new ArrayList<>();
  private final List<String> launcher = new ArrayList<>();
  private final Path recording;
  private final String name;
  private long timeoutSeconds = 120;
  private String classPath = APP_CLASSES.toAbsolutePath().toString();

  /** What the child's environment has beyond the cleaned one ({@link #env}). */
  private final java.util.Map<String, String> env = new java.util.LinkedHashMap<>();

  private ChildJvm(String name, Jdk jdk) throws IOException {
    this.name = name + "-" + jdk.name().toLowerCase();
    Files.createDirectories(WORK);
    this.recording = WORK.resolve(this.name + ".jfr");
    Files.deleteIfExists(recording);
    command.add(jdk.java().toString());
  }

  /** Returns a child named {@code name} (its files in target/it-work) running on {@code jdk}. */
  public static ChildJvm on(String name, Jdk jdk) throws IOException {
    return new ChildJvm(name, jdk);
  }

  /** Adds {@code -javaagent:<jar>=args} (no '=' when args is null). */
  public ChildJvm agent(String args) {
    command.add("-javaagent:" + AGENT_JAR.toAbsolutePath() + (args == null ? "" : "=" + args));
    return this;
  }

  /** Sets {@code name} to {@code value} in the child's (cleaned) environment. */
  public ChildJvm env(String name, String value) {
    env.put(name, value);
    return this;
  }

  /** Adds JVM options. */
  public ChildJvm jvm(String... options) {
    command.addAll(List.of(options));
    return this;
  }

  /**
   * Records flight events from start, dumped at exit to this child's .jfr: the JDK's default
   * settings, and every decision as its own event ({@code throttle=off} for the per-decision
   * events), so a test reads each decision an application took. {@code record=} files keep the
   * agent's default throttle; {@code RecordingsIT} reads those.
   */
  public ChildJvm record() throws IOException {
    Path every = WORK.resolve("every-decision.jfc").toAbsolutePath();
    if (!Files.exists(every)) {
      Files.writeString(every, EVERY_DECISION);
    }
    command.add(
        "-XX:StartFlightRecording=filename="
            + recording.toAbsolutePath()
            + ",dumponexit=true,settings=default,settings="
            + every);
    return this;
  }

  /** Settings added to the JDK's default: the per-decision events unthrottled. */
  static final String EVERY_DECISION =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          + "<configuration version=\"2.0\" label=\"every decision\">\n"
          + "  <event name=\"flodl.budget.CacheAdmission\"><setting name=\"throttle\">off</setting>"
          + "</event>\n"
          + "  <event name=\"flodl.budget.Release\"><setting name=\"throttle\">off</setting></event>\n"
          + "</configuration>\n";

  /** Runs the main class from {@code paths} (jars or folders) instead of the test classes. */
  public ChildJvm classPath(Path... paths) {
    List<String> entries = new ArrayList<>();
    for (Path p : paths) {
      entries.add(p.toAbsolutePath().toString());
    }
    this.classPath = String.join(java.io.File.pathSeparator, entries);
    return this;
  }

  /** Adds {@code entry} (a jar or a folder) to the end of the class path. */
  public ChildJvm withClassPath(Path entry) {
    this.classPath = classPath + java.io.File.pathSeparator + entry.toAbsolutePath();
    return this;
  }

  /** Runs the main class from the test classes and every jar of {@code folder}. */
  public ChildJvm withJarsOf(Path folder) throws IOException {
    List<String> entries = new ArrayList<>(List.of(APP_CLASSES.toAbsolutePath().toString()));
    try (var files = Files.list(folder)) {
      files
          .filter(f -> f.toString().endsWith(".jar"))
          .sorted()
          .forEach(f -> entries.add(f.toAbsolutePath().toString()));
    }
    this.classPath = String.join(java.io.File.pathSeparator, entries);
    return this;
  }

  /**
   * Starts the JVM through {@code prefix} (e.g. {@code sh -c 'echo $$ > CG/cgroup.procs; exec "$@"'
   * sh}): the java command line is appended to it.
   */
  public ChildJvm launchedBy(String... prefix) {
    launcher.addAll(List.of(prefix));
    return this;
  }

  /** Sets the timeout. */
  public ChildJvm timeout(long seconds) {
    this.timeoutSeconds = seconds;
    return this;
  }

  /** Returns the recording's path. */
  public Path recording() {
    return recording;
  }

  /** Starts {@code mainClass} from the test classes with {@code args}; returns the process. */
  public Process start(String mainClass, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(launcher);
    cmd.addAll(command);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    return env.isEmpty() ? launch(name, cmd) : ChildProcess.start(name, cmd, WORK, env);
  }

  /**
   * Starts {@code command} as the child {@code name}: its stdout and stderr in WORK/NAME.out and
   * WORK/NAME.err, its environment cleaned ({@link ChildProcess#start}).
   */
  /**
   * Returns what {@code java -jar flodl-budget-agent.jar report FILE} prints (a recording, or a
   * folder of its chunks), asserting it ran within a minute and exited 0.
   */
  static String report(Path recording) throws Exception {
    Process p =
        new ProcessBuilder(
                Jdk.JDK17.java().toString(),
                "-jar",
                AGENT_JAR.toAbsolutePath().toString(),
                "report",
                recording.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    Assertions.assertTrue(p.waitFor(60, TimeUnit.SECONDS), out);
    Assertions.assertEquals(0, p.exitValue(), out);
    return out;
  }

  static Process launch(String name, List<String> command) throws IOException {
    return ChildProcess.start(name, command, WORK);
  }

  /** Runs {@code mainClass} to the end; returns what it printed and recorded. */
  public Result run(String mainClass, String... args) throws IOException, InterruptedException {
    Process p = start(mainClass, args);
    return await(p);
  }

  /** Waits for {@code p} (killed on timeout) and returns its result. */
  public Result await(Process p) throws IOException, InterruptedException {
    ChildProcess.Output out = ChildProcess.await(name, p, WORK, timeoutSeconds);
    return new Result(name, out.exitCode(), out.stdout(), out.stderr(), recording);
  }

  /** Returns the text of this child's stdout so far. */
  public String stdoutSoFar() throws IOException {
    return ChildProcess.printed(name, ".out", WORK);
  }

  /** Returns the text of this child's stderr so far. */
  public String stderrSoFar() throws IOException {
    return ChildProcess.printed(name, ".err", WORK);
  }

  /** What a child printed, its exit code and its recording. */
  public static final class Result {
    public final String name;
    public final int exitCode;
    public final String stdout;
    public final String stderr;
    public final Path recording;

    private List<RecordedEvent> events;

    Result(String name, int exitCode, String stdout, String stderr, Path recording) {
      this.name = name;
      this.exitCode = exitCode;
      this.stdout = stdout;
      this.stderr = stderr;
      this.recording = recording;
    }

    /** Returns the value of the first stdout line {@code KEY=value} (up to a space). */
    public String value(String key) {
      for (String line : stdout.split("\n")) {
        for (String part : line.trim().split(" ")) {
          if (part.startsWith(key + "=")) {
            return part.substring(key.length() + 1);
          }
        }
      }
      throw new AssertionError(
          name + ": no " + key + "= in stdout:\n" + stdout + "\nstderr:\n" + stderr);
    }

    /** Returns the first stdout line starting with {@code KEY=} , the rest of the line. */
    public String line(String key) {
      for (String line : stdout.split("\n")) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1).trim();
        }
      }
      throw new AssertionError(
          name + ": no " + key + "= line in stdout:\n" + stdout + "\nstderr:\n" + stderr);
    }

    /** Returns the recorded events named {@code eventName}, in time order. */
    public List<RecordedEvent> events(String eventName) throws IOException {
      return all().stream()
          .filter(e -> e.getEventType().getName().equals(eventName))
          .sorted((a, b) -> a.getStartTime().compareTo(b.getStartTime()))
          .collect(Collectors.toList());
    }

    /** Returns every recorded event whose name starts with {@code flodl.}. */
    public List<RecordedEvent> flodlEvents() throws IOException {
      return all().stream()
          .filter(e -> e.getEventType().getName().startsWith("flodl."))
          .collect(Collectors.toList());
    }

    /** Returns the recording's events, read once (none when there is no recording). */
    private synchronized List<RecordedEvent> all() throws IOException {
      if (events == null) {
        events = Files.exists(recording) ? RecordingFile.readAllEvents(recording) : List.of();
      }
      return events;
    }

    /** Returns this result for assertion messages. */
    @Override
    public String toString() {
      return name + " exit=" + exitCode + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
    }
  }
}
