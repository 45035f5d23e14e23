package org.flodl.budget.agent.record;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * The recording the agent's {@code record=FILE} option starts: the settings of a {@code .jfc}
 * (by default {@code flodl-budget.jfc}, shipped in the agent jar), kept on disk, and written to
 * FILE when the JVM exits, whether main returns, {@code System.exit} is called or an uncaught
 * {@code OutOfMemoryError} ends the last thread. Only a JVM killed outright ({@code kill -9}, or
 * {@code -XX:+ExitOnOutOfMemoryError}, which runs no shutdown hooks) leaves no file; its chunks
 * stay in the repository for {@code jfr assemble}.
 */
public final class BudgetRecording implements AutoCloseable {
  /** The settings resource the agent uses: the {@code .jfc} at the root of the agent jar. */
  public static final String DEFAULT_SETTINGS = "/flodl-budget.jfc";

  /** The name the recording carries in {@code jcmd JFR.check} and in Mission Control. */
  public static final String NAME = "flodl-budget";

  private final Recording recording;
  private final Path file;

  private BudgetRecording(Recording recording, Path file) {
    this.recording = recording;
    this.file = file;
  }

  /**
   * Returns a started recording with the settings of {@code settingsResource} (a class-path
   * resource such as {@link #DEFAULT_SETTINGS}, or else a {@code .jfc} file path) that writes
   * {@code file} at exit.
   *
   * @throws IOException when the settings cannot be read or parsed, or {@code file} cannot be
   *     written; nothing is started then
   */
  public static BudgetRecording start(Path file, String settingsResource) throws IOException {
    Configuration settings = settings(settingsResource);
    Path destination = file.toAbsolutePath();
    Recording recording = new Recording(settings);
    try {
      recording.setName(NAME);
      recording.setToDisk(true);
      recording.setDestination(destination);
      recording.setDumpOnExit(true);
      recording.start();
    } catch (IOException | RuntimeException e) {
      recording.close();
      throw e;
    }
    return new BudgetRecording(recording, destination);
  }

  /** Returns a started recording with {@link #DEFAULT_SETTINGS} that writes {@code file} at exit. */
  public static BudgetRecording start(Path file) throws IOException {
    return start(file, DEFAULT_SETTINGS);
  }

  /** Returns the parsed settings of a class-path resource, or of a file when no resource has the name. */
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
      throw new IOException("cannot parse JFR settings " + settingsResource + ": " + e.getMessage(), e);
    }
  }

  /** Returns the file the recording is written to. */
  public Path file() {
    return file;
  }

  /** Returns the underlying recording (its settings, state and size). */
  public Recording recording() {
    return recording;
  }

  /** Writes what has been recorded so far to {@link #file()}; recording goes on. */
  public void dump() throws IOException {
    recording.dump(file);
  }

  /** Stops the recording, writes {@link #file()} and frees its disk space; idempotent. */
  @Override
  public void close() {
    try {
      recording.stop();
    } catch (IllegalStateException alreadyStopped) {
      // stopped (and written) before: nothing left to write
    }
    recording.close();
  }
}
