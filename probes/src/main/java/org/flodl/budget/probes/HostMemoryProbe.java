package org.flodl.budget.probes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@code proc} host-RAM probe: {@code MemAvailable} from {@code /proc/meminfo}, bounded by the
 * process's memory cgroup. For cgroup v2 a level's headroom is {@code memory.max − (memory.current
 * − inactive_file)}, for v1 {@code memory.limit_in_bytes − (memory.usage_in_bytes −
 * total_inactive_file)} (and the leaf's {@code hierarchical_memory_limit}); {@code max} and values
 * of 2<sup>62</sup> or more mean no limit. Every level from the leaf to the mount point is read and
 * the tightest one binds. The root folder is a parameter so tests can feed it the files of real
 * machines; {@link #system()} reads {@code /}. The cgroup is located once; each file is opened once
 * and re-read from offset 0 (the kernel regenerates {@code /proc} and cgroup files on every read
 * from the start), into one reused buffer parsed in place, so a refresh makes no open or close
 * calls and allocates little.
 */
public final class HostMemoryProbe implements RamProbe, AutoCloseable {
  /**
   * Limits at or above this are the kernel's "unlimited" (v1 prints LONG_MAX rounded to a page).
   */
  static final long NO_LIMIT = 1L << 62;

  private final Path root;
  private final Path meminfo;
  private final Map<Path, FileChannel> open = new HashMap<>();
  private ByteBuffer buf = ByteBuffer.allocate(8192);
  private int len;
  private CgroupMemory.Location location;
  private boolean located;

  private HostMemoryProbe(Path root) {
    this.root = root;
    this.meminfo = root.resolve("proc/meminfo");
  }

  /** Returns a probe of the machine whose {@code /proc} and {@code /sys} lie under {@code root}. */
  public static HostMemoryProbe forRoot(Path root) {
    return new HostMemoryProbe(root);
  }

  /** Returns a probe of this machine. */
  public static HostMemoryProbe system() {
    return forRoot(Path.of("/"));
  }

  /** Returns {@code proc}. */
  @Override
  public String name() {
    return "proc";
  }

  /** Returns the cgroup this probe reads, or null when it found none (for messages and tests). */
  public synchronized String cgroupDescription() {
    CgroupMemory.Location loc = location();
    return loc == null ? null : loc.version().label + " " + loc.levels().get(0);
  }

  /** Returns a fresh reading; never throws. */
  @Override
  public synchronized HostMemory read() {
    try {
      return readUnchecked();
    } catch (RuntimeException e) {
      return HostMemory.failure("none", "host probe failed: " + e);
    }
  }

  private HostMemory readUnchecked() {
    long memAvailable = -1;
    String meminfoProblem = null;
    if (load(meminfo)) {
      long kb = field(buf.array(), len, "MemAvailable:");
      if (kb >= 0) {
        memAvailable = kb > Long.MAX_VALUE / 1024 ? Long.MAX_VALUE : kb * 1024;
      } else {
        meminfoProblem = meminfo + " has no MemAvailable line";
      }
    } else {
      meminfoProblem = "cannot read " + meminfo;
    }

    CgroupMemory.Location loc = location();
    long bestHeadroom = Long.MAX_VALUE;
    Path binding = null;
    long limit = -1;
    long usage = -1;
    long workingSet = -1;
    if (loc != null) {
      CgroupMemory.Version v = loc.version();
      for (int i = 0; i < loc.levels().size(); i++) {
        Path level = loc.levels().get(i);
        boolean leaf = i == 0;
        long levelLimit = loadNumber(level.resolve(v.limitFile));
        boolean limited = levelLimit >= 0 && levelLimit < NO_LIMIT;
        if (!leaf && !limited) {
          continue;
        }
        long levelUsage = loadNumber(level.resolve(v.usageFile));
        if (levelUsage < 0) {
          continue;
        }
        long inactive = -1;
        long hierarchical = -1;
        if (load(level.resolve("memory.stat"))) {
          inactive = field(buf.array(), len, v.inactiveFileKey);
          if (inactive < 0 && v == CgroupMemory.Version.V1) {
            inactive = field(buf.array(), len, "inactive_file");
          }
          if (leaf && v == CgroupMemory.Version.V1) {
            hierarchical = field(buf.array(), len, "hierarchical_memory_limit");
          }
        }
        boolean hierLimited =
            hierarchical >= 0 && hierarchical < NO_LIMIT && (!limited || hierarchical < levelLimit);
        long levelWs = levelUsage - Math.max(inactive, 0);
        levelWs = Math.max(levelWs, 0);
        long effectiveLimit = hierLimited ? hierarchical : limited ? levelLimit : -1;
        if (leaf && limit < 0) {
          usage = levelUsage; // reported even when nothing limits the cgroup
          workingSet = levelWs;
        }
        if (effectiveLimit >= 0) {
          long headroom = Math.max(effectiveLimit - levelWs, 0);
          if (headroom < bestHeadroom) {
            bestHeadroom = headroom;
            binding = level;
            limit = effectiveLimit;
            usage = levelUsage;
            workingSet = levelWs;
          }
        }
      }
    }

    String cgroupLabel = loc == null ? null : loc.version().label;
    if (memAvailable < 0) {
      if (limit >= 0) {
        return new HostMemory(
            bestHeadroom, -1, limit, usage, workingSet, cgroupLabel, null, String.valueOf(binding));
      }
      return HostMemory.failure(
          "none",
          meminfoProblem
              + (loc == null
                  ? " and found no memory cgroup"
                  : " and the memory cgroup has no limit"));
    }
    long available = limit >= 0 ? Math.min(memAvailable, bestHeadroom) : memAvailable;
    String source = loc == null ? "proc" : "proc+" + cgroupLabel;
    return new HostMemory(
        available,
        memAvailable,
        limit,
        usage,
        workingSet,
        source,
        null,
        limit >= 0 ? String.valueOf(binding) : null);
  }

  private CgroupMemory.Location location() {
    if (!located) {
      location = CgroupMemory.locate(root);
      located = true;
    }
    return location;
  }

  /** Reads {@code file} into the reused buffer; returns false when it cannot be read. */
  private boolean load(Path file) {
    for (int attempt = 0; attempt < 2; attempt++) {
      FileChannel ch = open.get(file);
      try {
        if (ch == null) {
          ch = FileChannel.open(file, StandardOpenOption.READ);
          open.put(file, ch);
        }
        buf.clear();
        while (true) {
          if (!buf.hasRemaining()) {
            buf = ByteBuffer.allocate(buf.capacity() * 2).put(buf.flip());
          }
          int n = ch.read(buf, buf.position());
          if (n <= 0) {
            len = buf.position();
            return true;
          }
        }
      } catch (IOException | RuntimeException e) {
        closeQuietly(file); // a stale descriptor gets one fresh open
      }
    }
    len = 0;
    return false;
  }

  private void closeQuietly(Path file) {
    FileChannel ch = open.remove(file);
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // nothing to do: the descriptor is gone either way
      }
    }
  }

  /** Closes the files this probe keeps open; a later read opens them again. */
  @Override
  public synchronized void close() {
    for (Path p : open.keySet().toArray(new Path[0])) {
      closeQuietly(p);
    }
  }

  /** Returns a one-value file's number: -1 unreadable, {@link Long#MAX_VALUE} for {@code max}. */
  private long loadNumber(Path file) {
    if (!load(file)) {
      return -1;
    }
    byte[] b = buf.array();
    int i = 0;
    while (i < len && isSpace(b[i])) {
      i++;
    }
    if (i + 3 <= len && b[i] == 'm' && b[i + 1] == 'a' && b[i + 2] == 'x') {
      return Long.MAX_VALUE;
    }
    return number(b, i, len);
  }

  /**
   * Returns the number after {@code key} at the start of a line of {@code b[0..n)} ({@code
   * MemAvailable: 24359524 kB}, {@code inactive_file 77824}), or -1 when there is none.
   */
  static long field(byte[] b, int n, String key) {
    byte[] k = key.getBytes(StandardCharsets.US_ASCII);
    int i = 0;
    while (i < n) {
      if (matches(b, n, i, k)) {
        int j = i + k.length;
        if (j < n && (isSpace(b[j]) || k[k.length - 1] == ':')) {
          return number(b, j, n);
        }
      }
      while (i < n && b[i] != '\n') {
        i++;
      }
      i++;
    }
    return -1;
  }

  private static boolean matches(byte[] b, int n, int at, byte[] k) {
    if (at + k.length > n) {
      return false;
    }
    for (int i = 0; i < k.length; i++) {
      if (b[at + i] != k[i]) {
        return false;
      }
    }
    return true;
  }

  private static long number(byte[] b, int from, int n) {
    int i = from;
    while (i < n && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    long v = 0;
    int digits = 0;
    while (i < n && b[i] >= '0' && b[i] <= '9') {
      int d = b[i] - '0';
      v = v > (Long.MAX_VALUE - d) / 10 ? Long.MAX_VALUE : v * 10 + d;
      digits++;
      i++;
    }
    return digits == 0 ? -1 : v;
  }

  private static boolean isSpace(byte c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
  }
}
