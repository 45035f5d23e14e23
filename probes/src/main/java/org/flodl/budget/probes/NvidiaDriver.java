package org.flodl.budget.probes;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A pure-Java look for an NVIDIA driver on Linux before any native library is touched, so a machine
 * without one (a CPU box, a container without GPU passthrough, one with the CUDA toolkit but no
 * driver) fails the GPU probes in microseconds instead of paying for JNA's start and its library
 * search. It answers "absent" only when nothing suggests a driver: no device node ({@code
 * /dev/nvidiactl}, WSL's {@code /dev/dxg}), no loaded module ({@code /proc/driver/nvidia}), and no
 * {@code libcuda.so.1} or {@code libnvidia-ml.so.1} in {@code LD_LIBRARY_PATH}, the folders of
 * {@code /etc/ld.so.conf} or the usual library folders (a host whose nodes are made on first use by
 * {@code nvidia-modprobe} still has its libraries there). Elsewhere it says nothing.
 */
final class NvidiaDriver {
  private static final String[] LIBRARIES = {"libcuda.so.1", "libnvidia-ml.so.1"};
  private static final String[] STANDARD_DIRS = {
    "lib",
    "lib64",
    "usr/lib",
    "usr/lib64",
    "lib/x86_64-linux-gnu",
    "usr/lib/x86_64-linux-gnu",
    "lib/aarch64-linux-gnu",
    "usr/lib/aarch64-linux-gnu",
    "usr/local/nvidia/lib64",
    "usr/local/nvidia/lib",
    "usr/lib/wsl/lib"
  };
  private static volatile String cached;
  private static volatile boolean looked;

  private NvidiaDriver() {}

  /** Returns why this machine has no NVIDIA driver, or null when it may have one. */
  static String absence() {
    if (!looked) {
      cached =
          absence(
              System.getProperty("os.name", ""), Path.of("/"), System.getenv("LD_LIBRARY_PATH"));
      looked = true;
    }
    return cached;
  }

  /** Returns why the machine under {@code root} has no NVIDIA driver, or null when it may. */
  static String absence(String osName, Path root, String ldLibraryPath) {
    if (!osName.equals("Linux")) {
      return null;
    }
    try {
      for (String marker : new String[] {"dev/nvidiactl", "dev/dxg", "proc/driver/nvidia"}) {
        if (Files.exists(root.resolve(marker))) {
          return null;
        }
      }
      for (Path dir : libraryDirs(root, ldLibraryPath)) {
        for (String lib : LIBRARIES) {
          if (Files.exists(dir.resolve(lib))) {
            return null;
          }
        }
      }
    } catch (RuntimeException e) {
      return null; // cannot tell: let the native lookup decide
    }
    return "no NVIDIA driver (no /dev/nvidiactl or /proc/driver/nvidia, and no libcuda.so.1 or "
        + "libnvidia-ml.so.1 on the library path)";
  }

  private static List<Path> libraryDirs(Path root, String ldLibraryPath) {
    Set<Path> dirs = new LinkedHashSet<>();
    if (ldLibraryPath != null) {
      for (String d : ldLibraryPath.split(":")) {
        if (!d.isBlank()) {
          dirs.add(under(root, d.trim()));
        }
      }
    }
    ldSoConf(root, root.resolve("etc/ld.so.conf"), dirs, 0);
    for (String d : STANDARD_DIRS) {
      dirs.add(root.resolve(d));
    }
    return new ArrayList<>(dirs);
  }

  /** Adds the folders an {@code ld.so.conf} names, following its {@code include} globs. */
  private static void ldSoConf(Path root, Path conf, Set<Path> dirs, int depth) {
    if (depth > 4) {
      return;
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(conf);
    } catch (IOException | RuntimeException e) {
      return;
    }
    for (String raw : lines) {
      int hash = raw.indexOf('#');
      String line = (hash >= 0 ? raw.substring(0, hash) : raw).trim();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("include ")) {
        String pattern = line.substring("include ".length()).trim();
        Path parent = under(root, pattern).getParent();
        String glob = Path.of(pattern).getFileName().toString();
        if (parent == null) {
          continue;
        }
        // Listed and matched here, not by a glob DirectoryStream: its PathMatcher compiles a
        // regular expression, two dozen classes on the probe thread a first GPU decision waits for.
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
          for (Path included : entries) {
            if (wildcard(glob, included.getFileName().toString(), 0, 0)) {
              ldSoConf(root, included, dirs, depth + 1);
            }
          }
        } catch (IOException | RuntimeException e) {
          continue;
        }
      } else if (line.startsWith("/")) {
        dirs.add(under(root, line));
      }
    }
  }

  /**
   * Returns whether {@code name} from {@code n} matches {@code glob} from {@code g}: {@code *} any
   * run of characters, {@code ?} one, anything else itself (the wildcards ld.so.conf's includes
   * use; a {@code [...]} set is not read, so a pattern with one matches only its literal name).
   */
  static boolean wildcard(String glob, String name, int g, int n) {
    while (g < glob.length()) {
      char c = glob.charAt(g);
      if (c == '*') {
        for (int k = n; k <= name.length(); k++) {
          if (wildcard(glob, name, g + 1, k)) {
            return true;
          }
        }
        return false;
      }
      if (n >= name.length() || (c != '?' && c != name.charAt(n))) {
        return false;
      }
      g++;
      n++;
    }
    return n == name.length();
  }

  private static Path under(Path root, String absolute) {
    String rel = absolute.startsWith("/") ? absolute.substring(1) : absolute;
    return rel.isEmpty() ? root : root.resolve(rel);
  }
}
