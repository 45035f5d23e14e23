package org.flodl.budget.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Memory cgroups for the child-JVM tests, made under this process's own cgroup where the machine
 * lets this user (root) create them: cgroup v1 ({@code memory.limit_in_bytes}, {@code
 * memory.max_usage_in_bytes}) or v2 ({@code memory.max}, {@code memory.peak}, where the memory
 * controller can be enabled for children of this process's cgroup).
 */
final class Cgroups {
  private Cgroups() {}

  /**
   * Returns a new memory cgroup named after {@code name} and this process with a limit of {@code
   * limitBytes}, or null (said in one line) where none can be made.
   */
  static Path create(String name, long limitBytes) throws IOException {
    boolean v2 = Files.exists(Path.of("/sys/fs/cgroup/cgroup.controllers"));
    Path base = v2 ? ownUnifiedCgroup() : ownMemoryCgroup();
    if (base == null || !"root".equals(System.getProperty("user.name"))) {
      System.out.println(
          "no memory cgroup for "
              + name
              + ": no cgroup "
              + (v2 ? "v2" : "v1")
              + " memory folder this user may create children in ("
              + base
              + ", user "
              + System.getProperty("user.name")
              + ")");
      return null;
    }
    Path cg = base.resolve("flodl-it-" + ProcessHandle.current().pid() + "-" + name);
    try {
      Files.createDirectory(cg);
      if (v2) {
        if (!Files.exists(cg.resolve("memory.max")) || !Files.exists(cg.resolve("memory.peak"))) {
          throw new IOException(
              "the memory controller (memory.max, memory.peak) is not enabled"
                  + " for children of "
                  + base);
        }
        Files.writeString(cg.resolve("memory.max"), Long.toString(limitBytes));
      } else {
        Files.writeString(cg.resolve("memory.limit_in_bytes"), Long.toString(limitBytes));
      }
      return cg;
    } catch (IOException e) {
      System.out.println("no memory cgroup for " + name + ": " + e);
      remove(cg);
      return null;
    }
  }

  /** Returns the cgroup's peak usage since the last {@link #resetPeak}, in bytes. */
  static long peak(Path cgroup) throws IOException {
    Path v1 = cgroup.resolve("memory.max_usage_in_bytes");
    Path file = Files.exists(v1) ? v1 : cgroup.resolve("memory.peak");
    return Long.parseLong(Files.readString(file).trim());
  }

  /** Starts the cgroup's peak usage over from what it uses now (v2: kernels from 6.12). */
  static void resetPeak(Path cgroup) throws IOException {
    Path v1 = cgroup.resolve("memory.max_usage_in_bytes");
    Files.writeString(Files.exists(v1) ? v1 : cgroup.resolve("memory.peak"), "0");
  }

  /** The launcher prefix that moves the JVM into {@code cgroup} before it starts. */
  static String[] enter(Path cgroup) {
    return new String[] {
      "sh", "-c", "echo $$ > " + cgroup.resolve("cgroup.procs") + " && exec \"$@\"", "sh"
    };
  }

  /** Removes {@code cgroup} once its processes are gone (5 s at most). */
  static void remove(Path cgroup) {
    for (int i = 0; i < 50 && Files.exists(cgroup); i++) {
      try {
        Files.delete(cgroup); // rmdir; refused while a process is still in it
      } catch (IOException busy) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }
  }

  /**
   * Returns this process's cgroup v2 folder with the memory controller enabled for its children
   * (enabling it where it may), or null when there is none to write.
   */
  private static Path ownUnifiedCgroup() throws IOException {
    Path mount = Path.of("/sys/fs/cgroup");
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      if (line.startsWith("0::")) {
        Path own = mount.resolve(line.substring(3).replaceFirst("^/", ""));
        Path control = own.resolve("cgroup.subtree_control");
        if (!Files.isWritable(control)) {
          return null;
        }
        if (!Files.readString(control).contains("memory")) {
          try {
            Files.writeString(control, "+memory"); // refused where this cgroup holds processes
          } catch (IOException e) {
            return null;
          }
        }
        return own;
      }
    }
    return null;
  }

  /** Returns this process's cgroup v1 memory folder, or null when there is none to write. */
  private static Path ownMemoryCgroup() throws IOException {
    Path mount = Path.of("/sys/fs/cgroup/memory");
    if (!Files.isWritable(mount.resolve("cgroup.procs"))) {
      return null;
    }
    for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
      String[] f = line.split(":", 3);
      if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
        Path own = mount.resolve(f[2].substring(1));
        return Files.isDirectory(own) ? own : mount;
      }
    }
    return null;
  }
}
