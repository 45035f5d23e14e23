package org.flodl.budget.agent.record;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ReleaseEvent;

/**
 * The recording the agent's {@code record=FILE} option starts: the settings of a {@code .jfc} (by
 * default {@code flodl-budget.jfc}, shipped in the agent jar), kept in Flight Recorder's disk
 * repository within a size and an age ({@code record_maxsize}, {@code record_maxage}: JFR drops the
 * oldest chunks past them), and written to FILE when the JVM exits, whether main returns, {@code
 * System.exit} is called or an uncaught {@code OutOfMemoryError} ends the last thread.
 *
 * <p>While the JVM runs, {@code FILE.chunks/} holds the repository's chunk files as they are
 * written (a {@link ChunkMirror}: hard links, or copies of what is new where the repository is on
 * another file system), so a JVM killed outright ({@code kill -9}) leaves all but its last second
 * or two there, which {@code report FILE} reads when FILE is missing. Nothing is rewritten: the
 * mirror's work each second is what Flight Recorder wrote since. A clean exit removes the folder
 * once FILE is written.
 *
 * <p>FILE is refused unless it is a regular file (or does not exist yet) in a writable folder: a
 * pipe or a device would block the JVM's start or swallow the recording.
 */
public final class BudgetRecording implements AutoCloseable {
  /** The settings resource the agent uses: the {@code .jfc} at the root of the agent jar. */
  public static final String DEFAULT_SETTINGS = "/flodl-budget.jfc";

  /** The name the recording carries in {@code jcmd JFR.check} and in Mission Control. */
  public static final String NAME = "flodl-budget";

  /** The suffix of the folder of chunks a running JVM keeps beside FILE. */
  public static final String CHUNKS = org.flodl.budget.events.RecordingFiles.CHUNKS;

  /** How long the exit waits for Flight Recorder to write FILE before it leaves the chunks. */
  private static final long EXIT_WAIT_MILLIS = 120_000;

  private final Recording recording;
  private final Path file;
  private final ChunkMirror mirror;
  private volatile boolean closed;

  private BudgetRecording(Recording recording, Path file, ChunkMirror mirror) {
    this.recording = recording;
    this.file = file;
    this.mirror = mirror;
  }

  /** What a recording keeps: its settings, bounds and per-decision throttle. */
  public record Limits(String settings, long maxSizeBytes, Duration maxAge, String throttle) {
    /**
     * The defaults of {@code record=}: flodl-budget.jfc, the size bound {@code record_maxsize}
     * defaults to, no age bound, the settings' own throttle.
     */
    public static Limits defaults() {
      return new Limits(
          DEFAULT_SETTINGS,
          org.flodl.budget.policy.Sizes.parse(
              org.flodl.budget.agent.config.Option.RECORD_MAXSIZE.defaultText()),
          Duration.ZERO,
          null);
    }
  }

  /**
   * Returns a started recording with {@code limits} (a settings resource such as {@link
   * #DEFAULT_SETTINGS}, or else a {@code .jfc} file path; a size and an age bound, 0 for none; a
   * throttle for the per-decision events, or null for the settings' own) that writes {@code file}
   * at exit and keeps {@code file.chunks/} while it runs; {@code warn} hears of a write that fails,
   * once.
   *
   * @throws IOException when the settings cannot be read or parsed, or {@code file} is not a
   *     regular file in a writable folder; nothing is started then
   */
  public static BudgetRecording start(Path file, Limits limits, Consumer<String> warn)
      throws IOException {
    Path destination = file.toAbsolutePath();
    checkWritable(destination);
    Configuration settings = settings(limits.settings());
    Map<String, String> values = new HashMap<>(settings.getSettings());
    if (limits.throttle() != null) {
      values.put(CacheAdmissionEvent.NAME + "#throttle", limits.throttle());
      values.put(ReleaseEvent.NAME + "#throttle", limits.throttle());
    }
    Recording recording = new Recording(values);
    Path chunks = destination.resolveSibling(destination.getFileName() + CHUNKS);
    java.util.Set<String> before = ChunkMirror.existing(); // another recording's chunks
    try {
      Files.deleteIfExists(destination); // a killed run must not leave an older run's file behind
      ChunkMirror.clear(chunks);
      recording.setName(NAME);
      recording.setToDisk(true);
      if (limits.maxSizeBytes() > 0) {
        recording.setMaxSize(limits.maxSizeBytes());
      }
      if (!limits.maxAge().isZero()) {
        recording.setMaxAge(limits.maxAge());
      }
      recording.setDestination(destination);
      recording.setDumpOnExit(true);
      recording.start();
    } catch (IOException | RuntimeException e) {
      recording.close();
      throw e;
    }
    ChunkMirror mirror = new ChunkMirror(chunks, before, warn, file.toString());
    BudgetRecording r = new BudgetRecording(recording, destination, mirror);
    mirror.start();
    r.exitHook();
    return r;
  }

  /** Returns a started recording with {@link Limits#defaults()} that writes {@code file}. */
  public static BudgetRecording start(Path file) throws IOException {
    return start(file, Limits.defaults(), line -> {});
  }

  /**
   * Throws, saying why, unless {@code file} is a regular file or absent, in a folder this process
   * may write. Nothing is opened: a pipe is never waited on.
   */
  static void checkWritable(Path file) throws IOException {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.exists(file)) {
      if (!Files.isRegularFile(file)) {
        throw new IOException(
            Files.isDirectory(file)
                ? "it is a folder"
                : "it is not a regular file (a pipe, a device or a socket)");
      }
      if (!Files.isWritable(file)) {
        throw new AccessDeniedException(file.toString(), null, "the file is not writable");
      }
    }
    Path dir = file.getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new IOException("its folder " + dir + " does not exist");
    }
    if (!Files.isWritable(dir)) {
      throw new IOException("its folder " + dir + " is not writable");
    }
  }

  /**
   * Returns the parsed settings of a class-path resource, or of a file when no resource has the
   * name.
   */
  static Configuration settings(String settingsResource) throws IOException {
    InputStream in = BudgetRecording.class.getResourceAsStream(settingsResource);
    if (in == null) {
      Path path = Path.of(settingsResource);
      if (!Files.isRegularFile(path)) {
        throw new IOException(
            "no JFR settings named " + settingsResource + " on the class path or as a file");
      }
      in = Files.newInputStream(path);
    }
    try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
      return Configuration.create(reader);
    } catch (ParseException e) {
      throw new IOException(
          "cannot parse JFR settings " + settingsResource + ": " + e.getMessage(), e);
    }
  }

  private void exitHook() {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                new Runnable() {
                  @Override
                  public void run() {
                    atExit();
                  }
                },
                "flodl-budget-record-exit"));
  }

  /**
   * At exit: the mirror stops, Flight Recorder's own hook writes FILE (its dump at exit) and closes
   * the recording; once it has, the chunks go. Where FILE is never written (a full disk: the
   * recording stays stopped, not closed; or the wait of two minutes runs out) they stay for {@code
   * report}.
   */
  private void atExit() {
    mirror.stop();
    long deadline = System.nanoTime() + EXIT_WAIT_MILLIS * 1_000_000;
    try {
      long size = -1;
      long stableSince = 0;
      while (recording.getState() != RecordingState.CLOSED && System.nanoTime() < deadline) {
        Thread.sleep(20);
        // Stopped, and FILE no longer growing for a second: the write failed (a full disk), as
        // Flight Recorder closes the recording once it has written it. The chunks stay.
        long now = Files.isRegularFile(file) ? Files.size(file) : 0;
        if (recording.getState() != RecordingState.STOPPED || now != size) {
          size = now;
          stableSince = System.nanoTime();
        } else if (System.nanoTime() - stableSince > 1_000_000_000L) {
          return;
        }
      }
      if (recording.getState() == RecordingState.CLOSED
          && Files.isRegularFile(file)
          && Files.size(file) > 0) {
        mirror.delete();
      }
    } catch (IOException | InterruptedException ignored) {
      // what is left beside the file is harmless, and the next start removes it
    }
  }

  /** Returns the file the recording is written to. */
  public Path file() {
    return file;
  }

  /** Returns the folder of chunks a running JVM keeps beside the file. */
  public Path chunks() {
    return mirror.folder();
  }

  /** Returns the mirror that keeps the chunks. */
  ChunkMirror mirror() {
    return mirror;
  }

  /** Returns the underlying recording (its settings, state and size). */
  public Recording recording() {
    return recording;
  }

  /** Writes what has been recorded so far to {@link #file()}; recording goes on. */
  public void dump() throws IOException {
    recording.dump(file);
  }

  /** Stops the recording, writes {@link #file()} and removes the chunks; idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    mirror.stop();
    try {
      recording.stop(); // writes FILE
    } catch (IllegalStateException alreadyStopped) {
      // stopped (and written) before: nothing left to write
    }
    recording.close();
    mirror.delete();
  }
}
