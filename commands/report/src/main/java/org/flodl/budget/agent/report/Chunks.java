package org.flodl.budget.agent.report;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Chunk files as a killed JVM leaves them. Flight Recorder writes a chunk's events as they come
 * and, every second, flushes its constant pools and rewrites the chunk's header (its size up to the
 * flush, its state: 0 once finished). A chunk the JVM never finished holds its events up to the
 * last flush and then bytes no header describes, which the JDK's reader takes for another chunk;
 * {@link #readable} returns a copy cut at the last flush and marked finished.
 */
final class Chunks {
  static final int HEADER_BYTES = 68;
  private static final int SIZE_AT = 8;
  private static final int METADATA_AT = 24;
  private static final int STATE_AT = 64;

  private Chunks() {}

  /**
   * Returns {@code file} when it is a recording whose first chunk is finished (or no recording at
   * all: the reader says why), null for a chunk not yet flushed once (nothing in it to read), else
   * a temporary copy of the chunk up to its last flush, marked finished, which the caller deletes.
   */
  static Path readable(Path file) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long fileSize = in.size();
      if (fileSize < HEADER_BYTES) {
        return file;
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      while (header.hasRemaining() && in.read(header) > 0) {
        // read the whole header
      }
      if (header.getInt(0) != 0x464C5200 || header.get(STATE_AT) == 0) {
        return file; // not a chunk (the reader says so), or a finished one
      }
      if (header.getLong(METADATA_AT) == 0) {
        return null; // begun, never flushed: no metadata yet, no event to read
      }
      long size = header.getLong(SIZE_AT);
      if (size < HEADER_BYTES || size > fileSize) {
        size = fileSize; // no flush yet, or a header from a later flush than the data
      }
      Path copy = Files.createTempFile("flodl-budget-chunk", ".jfr");
      try (FileChannel out = FileChannel.open(copy, StandardOpenOption.WRITE)) {
        long at = 0;
        while (at < size) {
          long n = in.transferTo(at, size - at, out);
          if (n <= 0) {
            break;
          }
          at += n;
        }
        out.write(ByteBuffer.wrap(new byte[] {0}), STATE_AT);
      }
      return copy;
    }
  }
}
