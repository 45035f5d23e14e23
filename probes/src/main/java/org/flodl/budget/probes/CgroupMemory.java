package org.flodl.budget.probes;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the memory cgroup of the current process under a root folder, the way the JDK's own
 * container support does: {@code /proc/self/cgroup} names the cgroup path, {@code
 * /proc/self/mountinfo} says where that hierarchy is mounted (and which part of it the mount shows,
 * for a container with its own cgroup namespace or a bind-mounted subtree). A v1 memory controller
 * wins over the unified hierarchy (hybrid hosts keep memory in v1). The result lists the cgroup's
 * folders from the leaf up to the mount point, so a limit set on a parent (a pod, a slice) still
 * binds.
 */
final class CgroupMemory {
  private CgroupMemory() {}

  /** Cgroup hierarchy flavour, with its file names. */
  enum Version {
    V1("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file", "cgroup-v1"),
    V2("memory.max", "memory.current", "inactive_file", "cgroup-v2");

    final String limitFile;
    final String usageFile;
    final String inactiveFileKey;
    final String label;

    Version(String limitFile, String usageFile, String inactiveFileKey, String label) {
      this.limitFile = limitFile;
      this.usageFile = usageFile;
      this.inactiveFileKey = inactiveFileKey;
      this.label = label;
    }
  }

  /**
   * Where a process's memory cgroup lives.
   *
   * @param version v1 or v2
   * @param levels the cgroup's folders, leaf first, up to and including the mount point
   */
  record Location(Version version, List<Path> levels) {}

  /** Returns the memory cgroup of the process whose files are under {@code root}, or null. */
  static Location locate(Path root) {
    String cgroup = readOrNull(root.resolve("proc/self/cgroup"));
    String mountinfo = readOrNull(root.resolve("proc/self/mountinfo"));
    if (cgroup != null && mountinfo != null) {
      Location found = locate(root, cgroup, mountinfo);
      if (found != null) {
        return found;
      }
    }
    // No /proc/self to go by (a bare fixture, a sandbox): the conventional mount points.
    Path v2 = root.resolve("sys/fs/cgroup");
    if (Files.isRegularFile(v2.resolve(Version.V2.limitFile))) {
      return new Location(Version.V2, List.of(v2));
    }
    Path v1 = root.resolve("sys/fs/cgroup/memory");
    if (Files.isRegularFile(v1.resolve(Version.V1.limitFile))) {
      return new Location(Version.V1, List.of(v1));
    }
    return null;
  }

  /** Returns the memory cgroup named by the two files' text, resolved under {@code root}. */
  static Location locate(Path root, String procSelfCgroup, String mountinfo) {
    String v1Path = null;
    String v2Path = null;
    for (String line : procSelfCgroup.split("\n")) {
      String[] f = line.split(":", 3);
      if (f.length < 3) {
        continue;
      }
      if (f[0].equals("0") && f[1].isEmpty()) {
        v2Path = f[2].trim();
      } else if (List.of(f[1].split(",")).contains("memory")) {
        v1Path = f[2].trim();
      }
    }
    Mount v1Mount = null;
    Mount v2Mount = null;
    for (String line : mountinfo.split("\n")) {
      Mount m = Mount.parse(line);
      if (m == null) {
        continue;
      }
      if (m.fsType.equals("cgroup") && List.of(m.superOptions.split(",")).contains("memory")) {
        v1Mount = v1Mount == null ? m : v1Mount;
      } else if (m.fsType.equals("cgroup2")) {
        v2Mount = v2Mount == null ? m : v2Mount;
      }
    }
    if (v1Path != null && v1Mount != null) {
      return new Location(Version.V1, levels(root, v1Mount, v1Path));
    }
    if (v2Path != null && v2Mount != null) {
      return new Location(Version.V2, levels(root, v2Mount, v2Path));
    }
    return null;
  }

  private static List<Path> levels(Path root, Mount mount, String cgroupPath) {
    Path mountPoint = under(root, mount.mountPoint);
    String relative;
    if (mount.root.equals("/")) {
      relative = cgroupPath;
    } else if (cgroupPath.equals(mount.root)) {
      relative = "/";
    } else if (cgroupPath.startsWith(mount.root + "/")) {
      relative = cgroupPath.substring(mount.root.length());
    } else {
      relative = "/"; // the mount shows another subtree (a namespaced container): its top is ours
    }
    Path leaf = under(mountPoint, relative).normalize();
    if (!leaf.startsWith(mountPoint) || !Files.isDirectory(leaf)) {
      leaf = mountPoint; // a path outside the namespace's view ("/../..") or not mounted here
    }
    List<Path> levels = new ArrayList<>();
    for (Path p = leaf; p != null && p.startsWith(mountPoint); p = p.getParent()) {
      levels.add(p);
      if (p.equals(mountPoint)) {
        break;
      }
    }
    return List.copyOf(levels);
  }

  private static Path under(Path base, String absolute) {
    String rel = absolute.startsWith("/") ? absolute.substring(1) : absolute;
    return rel.isEmpty() ? base : base.resolve(rel);
  }

  private static String readOrNull(Path p) {
    try {
      return Files.readString(p);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** One line of {@code /proc/self/mountinfo}: the fields a cgroup lookup needs. */
  private record Mount(String root, String mountPoint, String fsType, String superOptions) {
    static Mount parse(String line) {
      String[] f = line.trim().split(" ");
      int dash = -1;
      for (int i = 6; i < f.length; i++) {
        if (f[i].equals("-")) {
          dash = i;
          break;
        }
      }
      if (dash < 0 || dash + 1 >= f.length) {
        return null;
      }
      String superOptions = dash + 3 < f.length ? f[dash + 3] : "";
      return new Mount(unescape(f[3]), unescape(f[4]), f[dash + 1], superOptions);
    }

    /** Returns a mountinfo path with its octal escapes ({@code \040} for a space) decoded. */
    private static String unescape(String s) {
      if (s.indexOf('\\') < 0) {
        return s;
      }
      StringBuilder b = new StringBuilder(s.length());
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        if (c == '\\'
            && i + 3 < s.length()
            && s.substring(i + 1, i + 4).chars().allMatch(d -> d >= '0' && d <= '7')) {
          b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
          i += 3;
        } else {
          b.append(c);
        }
      }
      return b.toString();
    }
  }
}
