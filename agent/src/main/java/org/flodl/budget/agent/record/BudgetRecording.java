package org.flodl.budget.agent.record;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.text.ParseException;
import java.util.function.Consumer;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import org.flodl.budget.events.RecordingProblemEvent;

/**
 * The recording the agent's {@code record=FILE} option starts: the settings of a {@code .jfc}
 * (by default {@code flodl-budget.jfc}, shipped in the agent jar), kept on disk, and written to
 * FILE when the JVM exits, whether main returns, {@code System.exit} is called or an uncaught
 * {@code OutOfMemoryError} ends the last thread. While the JVM runs, what has been recorded is
 * also written every few seconds to {@code FILE.part} (atomically: a whole recording or the one
 * before), so a JVM killed outright ({@code kill -9}, {@code -XX:+ExitOnOutOfMemoryError}) leaves
 * all but its last seconds there, which {@code report FILE} reads when FILE is missing. A clean
 * exit removes {@code FILE.part}.
 *
 * <p>FILE is refused unless it is a regular file (or does not exist yet) in a writable folder: a
 * pipe or a device would block the JVM's start or swallow the recording.
 */
public final class BudgetRecording implements AutoCloseable {
  /** The settings resource the agent uses: the {@code .jfc} at the root of the agent jar. */
  public static final String DEFAULT_SETTINGS = "/flodl-budget.jfc";

  /** The name the recording carries in {@code jcmd JFR.check} and in Mission Control. */
  public static final String NAME = "flodl-budget";

  /** The suffix of the snapshot a running JVM keeps beside FILE. */
  public static final String PART = ".part";

  /** The first interval between snapshots; it doubles (to a minute) when writing one is slow. */
  static final long FIRST_INTERVAL_MILLIS = 1_000;
  private static final long MAX_INTERVAL_MILLIS = 60_000;

  private static volatile Runnable beforeFinalWrite;

  private final Recording recording;
  private final Path file;
  private final Path part;
  private final Consumer<String> warn;
  private final Object writing = new Object();
  private volatile boolean closing;
  private volatile boolean failed;
  private Thread snapshots;

  private BudgetRecording(Recording recording, Path file, Consumer<String> warn) {
    this.recording = recording;
    this.file = file;
    this.part = file.resolveSibling(file.getFileName() + PART);
    this.warn = warn;
  }

  /**
   * Returns a started recording with the settings of {@code settingsResource} (a class-path
   * resource such as {@link #DEFAULT_SETTINGS}, or else a {@code .jfc} file path) that writes
   * {@code file} at exit and {@code file.part} while it runs; {@code warn} hears of a write that
   * fails, once.
   *
   * @throws IOException when the settings cannot be read or parsed, or {@code file} is not a
   *     regular file in a writable folder; nothing is started then
   */
  public static BudgetRecording start(Path file, String settingsResource, Consumer<String> warn)
      throws IOException {
    Path destination = file.toAbsolutePath();
    checkWritable(destination);
    Configuration settings = settings(settingsResource);
    Recording recording = new Recording(settings);
    BudgetRecording r = new BudgetRecording(recording, destination, warn);
    try {
      Files.deleteIfExists(destination); // a killed run must not leave an older run's file behind
      Files.deleteIfExists(r.part);
      recording.setName(NAME);
      recording.setToDisk(true);
      recording.setDestination(destination);
      recording.setDumpOnExit(true);
      recording.start();
    } catch (IOException | RuntimeException e) {
      recording.close();
      throw e;
    }
    r.startSnapshots();
    return r;
  }

  /**
   * Sets what runs at exit as this recording's exit hook starts (the agent's last summaries), so
   * that it is in the file JFR's own hook writes beside it.
   */
  public static void beforeFinalWrite(Runnable hook) {
    beforeFinalWrite = hook;
  }

  /** Returns a started recording with {@link #DEFAULT_SETTINGS} that writes {@code file}. */
  public static BudgetRecording start(Path file) throws IOException {
    return start(file, DEFAULT_SETTINGS, line -> { });
  }

  /**
   * Throws, saying why, unless {@code file} is a regular file or absent, in a folder this process
   * may write. Nothing is opened: a pipe is never waited on.
   */
  static void checkWritable(Path file) throws IOException {
    if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) || Files.exists(file)) {
      if (!Files.isRegularFile(file)) {
        throw new IOException(Files.isDirectory(file) ? "it is a folder"
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

  private void startSnapshots() {
    Thread t = new Thread(new Runnable() {
      @Override
      public void run() {
        snapshotLoop();
      }
    }, "flodl-budget-record");
    t.setDaemon(true);
    snapshots = t;
    t.start();
    Runtime.getRuntime().addShutdownHook(new Thread(new Runnable() {
      @Override
      public void run() {
        stopSnapshots();
      }
    }, "flodl-budget-record-exit"));
  }

  private void snapshotLoop() {
    long interval = FIRST_INTERVAL_MILLIS;
    while (!closing) {
      try {
        Thread.sleep(interval);
      } catch (InterruptedException e) {
        return;
      }
      long t0 = System.nanoTime();
      if (!snapshot()) {
        return;
      }
      long tookMillis = (System.nanoTime() - t0) / 1_000_000;
      if (tookMillis * 10 > interval) {
        interval = Math.min(MAX_INTERVAL_MILLIS, interval * 2); // writing costs: write less often
      }
    }
  }

  /** Writes what was recorded so far to FILE.part, atomically; returns false to stop. */
  boolean snapshot() {
    synchronized (writing) {
      if (closing || recording.getState() != RecordingState.RUNNING) {
        return !closing;
      }
      Path tmp = part.resolveSibling(part.getFileName() + ".tmp");
      try {
        recording.dump(tmp);
        try {
          Files.move(tmp, part, StandardCopyOption.ATOMIC_MOVE,
              StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(tmp, part, StandardCopyOption.REPLACE_EXISTING);
        }
        failed = false;
      } catch (IOException | RuntimeException e) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // a full disk may not even let it go
        }
        if (!failed) {
          failed = true;
          String line = "record=" + file + ": writing the recording failed ("
              + e.getMessage() + "); it goes on in memory and is written again later";
          warn.accept(line);
          RecordingProblemEvent.emit(file.toString(), line);
        }
      }
      return true;
    }
  }

  /**
   * At exit: no snapshot after this; the last summaries are emitted, JFR's own hook writes FILE
   * (its dump at exit), and FILE.part goes once FILE is there and has stopped growing (5 s at
   * most: where FILE is never written, a full disk, the snapshot stays for {@code report}).
   */
  private void stopSnapshots() {
    closing = true;
    Runnable hook = beforeFinalWrite;
    if (hook != null) {
      try {
        hook.run();
      } catch (Throwable t) {
        // the file is written without them
      }
    }
    synchronized (writing) {
      try {
        Files.deleteIfExists(part.resolveSibling(part.getFileName() + ".tmp"));
        long size = -1;
        for (int i = 0; i < 50; i++) {
          long now = Files.isRegularFile(file) ? Files.size(file) : 0;
          if (now > 0 && now == size) {
            Files.deleteIfExists(part);
            return;
          }
          size = now;
          Thread.sleep(100);
        }
      } catch (IOException | InterruptedException ignored) {
        // what is left beside the file is harmless, and the next start removes it
      }
    }
  }

  /** Returns the file the recording is written to. */
  public Path file() {
    return file;
  }

  /** Returns the snapshot a running JVM keeps beside the file. */
  public Path part() {
    return part;
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
    closing = true;
    synchronized (writing) {
      try {
        recording.stop(); // writes FILE
      } catch (IllegalStateException alreadyStopped) {
        // stopped (and written) before: nothing left to write
      }
      recording.close();
      try {
        Files.deleteIfExists(part);
        Files.deleteIfExists(part.resolveSibling(part.getFileName() + ".tmp"));
      } catch (IOException ignored) {
        // harmless, and the next start removes it
      }
    }
  }
}
