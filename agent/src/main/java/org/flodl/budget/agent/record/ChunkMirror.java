package org.flodl.budget.agent.record;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.flodl.budget.events.RecordingProblemEvent;

/**
 * Keeps Flight Recorder's disk repository, chunk by chunk, in a folder beside the recording's file
 * while the JVM runs, so that a JVM killed outright leaves its recording on disk where the user
 * asked for it. Once a second it lists the repository's chunk files: a new one is hard linked into
 * the folder (the same file: what Flight Recorder writes to it later, every second, is there too,
 * and nothing is copied), a chunk the recorder dropped (past {@code maxsize} or {@code maxage}) is
 * unlinked here too. Where the folder is on another file system than the repository, each chunk is
 * copied instead, only what it gained since the last copy (and its header, which the recorder
 * rewrites as it flushes). So the work of a second is what was recorded in it, whatever the
 * recording's length.
 */
final class ChunkMirror {
  /** Bytes of a chunk's header, which Flight Recorder rewrites at every flush. */
  static final int HEADER_BYTES = 68;

  static final String REPOSITORY_PROPERTY = "jdk.jfr.repository";
  private static final long INTERVAL_MILLIS = 1_000;

  private final Path folder;
  private final Set<String> before;
  private final Consumer<String> warn;
  private final String fileName;

  /** Per mirrored chunk, the bytes copied (copy mode) or -1 (linked). Guarded by this. */
  private final Map<String, Long> mirrored = new HashMap<>();

  private boolean copying;
  private boolean failed;
  private volatile boolean stopped;
  private long written;
  private Thread thread;

  /**
   * Returns a mirror into {@code folder} of the repository's chunks but those named in {@code
   * before} (another recording's, made before this one started); {@code warn} hears once of a write
   * that fails, about {@code fileName}.
   */
  ChunkMirror(Path folder, Set<String> before, Consumer<String> warn, String fileName) {
    this.folder = folder;
    this.before = before;
    this.warn = warn;
    this.fileName = fileName;
  }

  /** Returns the chunk files in Flight Recorder's repository now (none when it has none yet). */
  static Set<String> existing() {
    Path repo = repository();
    Set<String> names = new HashSet<>();
    if (repo != null) {
      names.addAll(chunkNames(repo));
    }
    return names;
  }

  /** Removes what an earlier run left in {@code folder} (its chunks, then the folder). */
  static void clear(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      Files.deleteIfExists(folder);
      return;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
      for (Path f : files) {
        Files.deleteIfExists(f);
      }
    }
    Files.deleteIfExists(folder);
  }

  /** Returns the folder the chunks are kept in. */
  Path folder() {
    return folder;
  }

  /** Returns the bytes this mirror has written (copies only: a link writes none). */
  synchronized long written() {
    return written;
  }

  /** Returns whether the chunks are copied (the folder is on another file system). */
  synchronized boolean copying() {
    return copying;
  }

  /** Starts the daemon thread that keeps the folder, once a second. */
  void start() {
    Thread t =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                while (!stopped) {
                  sync();
                  try {
                    Thread.sleep(INTERVAL_MILLIS);
                  } catch (InterruptedException e) {
                    return;
                  }
                }
              }
            },
            "flodl-budget-record");
    t.setDaemon(true);
    thread = t;
    t.start();
  }

  /** Stops keeping the folder (what is in it stays). */
  void stop() {
    stopped = true;
    Thread t = thread;
    if (t != null) {
      t.interrupt();
    }
  }

  /** Stops and removes the folder and what is in it. */
  synchronized void delete() {
    stop();
    try {
      clear(folder);
    } catch (IOException ignored) {
      // harmless, and the next start removes it
    }
    mirrored.clear();
  }

  /** Brings the folder up to the repository: new chunks linked or copied, dropped ones gone. */
  synchronized void sync() {
    if (stopped) {
      return;
    }
    Path repo = repository();
    if (repo == null || !Files.isDirectory(repo)) {
      return; // not made yet, or removed by the recorder's exit: keep what is here
    }
    List<String> names = new ArrayList<>(chunkNames(repo));
    names.removeAll(before);
    Collections.sort(names);
    try {
      if (!Files.isDirectory(folder)) {
        // Only the folder itself: a destination folder that was removed is not made again.
        Files.createDirectory(folder);
      }
      for (String name : names) {
        Path source = repo.resolve(name);
        Long done = mirrored.get(name);
        if (done == null && !copying) {
          try {
            Files.createLink(folder.resolve(name), source);
            mirrored.put(name, -1L);
            continue;
          } catch (FileSystemException | UnsupportedOperationException e) {
            if (e instanceof NoSuchFileException) {
              continue; // dropped by the recorder meanwhile
            }
            copying = true; // another file system, or no hard links: copy from now on
          }
        }
        if (copying) {
          copy(source, folder.resolve(name), name);
        }
      }
      for (String name : new ArrayList<>(mirrored.keySet())) {
        if (!names.contains(name)) {
          Files.deleteIfExists(folder.resolve(name)); // the recorder dropped it (size, age)
          mirrored.remove(name);
        }
      }
      failed = false;
    } catch (IOException | RuntimeException e) {
      if (!failed) {
        failed = true;
        String line =
            "record="
                + fileName
                + ": writing the recording failed ("
                + e.getMessage()
                + "); it goes on in memory and is written again later";
        warn.accept(line);
        try {
          RecordingProblemEvent.emit(fileName, line);
        } catch (Throwable ignored) {
          // the line was said
        }
      }
    }
  }

  /**
   * Copies what {@code source} gained since the last copy, and its header, to {@code target}. The
   * header is read first: the recorder rewrites it after the data it describes, so the data read
   * after it reaches at least as far.
   */
  private void copy(Path source, Path target, String name) throws IOException {
    long done = mirrored.getOrDefault(name, 0L);
    if (done < 0) {
      return; // linked
    }
    try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      while (header.hasRemaining() && in.read(header, header.position()) > 0) {
        // the whole header, or what there is of it
      }
      long size = in.size();
      if (size == done) {
        return;
      }
      try (FileChannel out =
          FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        long at = done;
        while (at < size) {
          long n = in.transferTo(at, size - at, out.position(at));
          if (n <= 0) {
            break;
          }
          at += n;
          written += n;
        }
        header.flip();
        written += out.write(header, 0);
        mirrored.put(name, at);
      }
    } catch (NoSuchFileException e) {
      // dropped by the recorder meanwhile
    }
  }

  private static Path repository() {
    String p = System.getProperty(REPOSITORY_PROPERTY);
    if (p == null || p.isEmpty()) {
      return null;
    }
    try {
      return Path.of(p);
    } catch (RuntimeException e) {
      return null;
    }
  }

  private static List<String> chunkNames(Path repo) {
    List<String> names = new ArrayList<>();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(repo)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (name.endsWith(".jfr")) {
          names.add(name);
        }
      }
    } catch (IOException | RuntimeException e) {
      // a repository the recorder is removing: nothing to mirror now
    }
    return names;
  }
}
