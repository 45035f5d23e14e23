package org.flodl.budget.agent.suggest;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The class files of a class path, read as bytes: no class is loaded, defined or run. Every class
 * name is kept (to tell which libraries are there); the bytes only of the classes {@code keep}
 * accepts (the application's, which are scanned).
 */
final class ClassFiles {
  /** A class file larger than this is no class anyone wrote by hand: it is not read. */
  private static final long MAX_CLASS_BYTES = 8L << 20;

  private final Set<String> names = new LinkedHashSet<>();
  private final Map<String, byte[]> kept = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();

  private ClassFiles() {}

  /**
   * Reads {@code paths}, each a class path as {@code java -cp} takes it: entries joined with the
   * platform's separator, each a jar, a class folder or a single class file, or a folder's {@code
   * *} (as {@code lib/*}, or {@code *} alone), which stands for every file of that folder whose
   * name ends in {@code .jar} or {@code .JAR} (not those of its subfolders, nor class folders;
   * hidden ones included), read in the order of their names. Keeps the bytes of the classes whose
   * internal names {@code keep} accepts. An entry that cannot be read, and a {@code *} with no jar,
   * is a problem, said by {@link #problems()}.
   */
  static ClassFiles read(List<String> paths, Predicate<String> keep) {
    ClassFiles files = new ClassFiles();
    for (String path : paths) {
      for (String entry : path.split(File.pathSeparator)) {
        String e = entry.trim();
        if (e.isEmpty()) {
          continue;
        }
        if (isWildcard(e)) {
          files.readWildcard(e, keep);
        } else {
          files.readEntry(Path.of(e), keep);
        }
      }
    }
    return files;
  }

  /** Returns whether {@code entry}'s last element is exactly {@code *} (as {@code java -cp}). */
  private static boolean isWildcard(String entry) {
    if (entry.equals("*")) {
      return true;
    }
    if (!entry.endsWith("*") || entry.length() < 2) {
      return false;
    }
    char before = entry.charAt(entry.length() - 2);
    return before == '/' || before == File.separatorChar;
  }

  /** Reads the jars of the folder a wildcard entry ({@code lib/*}) names, sorted by name. */
  private void readWildcard(String entry, Predicate<String> keep) {
    String folder = entry.substring(0, entry.length() - 1);
    Path dir = Path.of(folder.isEmpty() ? "." : folder);
    if (!Files.isDirectory(dir)) {
      problems.add(entry + ": no such folder");
      return;
    }
    List<Path> jars = new ArrayList<>();
    try (DirectoryStream<Path> list = Files.newDirectoryStream(dir)) {
      for (Path f : list) {
        String name = f.getFileName().toString();
        if ((name.endsWith(".jar") || name.endsWith(".JAR")) && Files.isRegularFile(f)) {
          jars.add(f);
        }
      }
    } catch (IOException | RuntimeException e) {
      problems.add(entry + ": cannot be read (" + e.getMessage() + ")");
      return;
    }
    if (jars.isEmpty()) {
      problems.add(entry + ": no jar in " + dir);
      return;
    }
    Collections.sort(jars);
    for (Path jar : jars) {
      readEntry(jar, keep);
    }
  }

  private void readEntry(Path p, Predicate<String> keep) {
    try {
      if (Files.isDirectory(p)) {
        try (Stream<Path> walk = Files.walk(p)) {
          for (Path f : (Iterable<Path>) walk::iterator) {
            String rel = p.relativize(f).toString().replace(File.separatorChar, '/');
            // As in a jar, META-INF/ is no class path (the agent keeps its command line there).
            if (rel.endsWith(".class") && !rel.startsWith("META-INF/") && Files.isRegularFile(f)) {
              add(rel, keep, () -> Files.size(f), () -> Files.readAllBytes(f));
            }
          }
        }
      } else if (Files.isRegularFile(p) && p.toString().endsWith(".class")) {
        byte[] b = Files.readAllBytes(p);
        String name = nameOf(b);
        if (name != null) {
          add(name + ".class", keep, () -> b.length, () -> b);
        }
      } else if (Files.isRegularFile(p)) {
        try (ZipFile zip = new ZipFile(p.toFile())) {
          Enumeration<? extends ZipEntry> entries = zip.entries();
          while (entries.hasMoreElements()) {
            ZipEntry e = entries.nextElement();
            String n = e.getName();
            if (n.endsWith(".class") && !n.startsWith("META-INF/")) {
              add(
                  n,
                  keep,
                  e::getSize,
                  () -> {
                    try (InputStream in = zip.getInputStream(e)) {
                      return in.readNBytes((int) Math.min(MAX_CLASS_BYTES + 1, Integer.MAX_VALUE));
                    }
                  });
            }
          }
        }
      } else {
        problems.add(p + ": no such jar, class folder or class file");
      }
    } catch (IOException | RuntimeException e) {
      problems.add(p + ": cannot be read (" + e.getMessage() + ")");
    }
  }

  private static String nameOf(byte[] b) {
    try {
      return new org.objectweb.asm.ClassReader(b).getClassName();
    } catch (RuntimeException e) {
      return null; // not a class file
    }
  }

  private interface Size {
    long get() throws IOException;
  }

  private interface Bytes {
    byte[] get() throws IOException;
  }

  private void add(String relative, Predicate<String> keep, Size size, Bytes bytes)
      throws IOException {
    String name = relative.substring(0, relative.length() - ".class".length());
    if (name.endsWith("module-info") || name.endsWith("package-info") || !names.add(name)) {
      return; // the first of a name wins, as on a class path
    }
    if (keep.test(name) && size.get() <= MAX_CLASS_BYTES) {
      kept.put(name, bytes.get());
    }
  }

  /** Returns every class name read (internal form, {@code com/acme/Foo}). */
  Set<String> names() {
    return names;
  }

  /** Returns the bytes of the classes kept, by internal name. */
  Map<String, byte[]> kept() {
    return kept;
  }

  /** Returns what could not be read, one line each. */
  List<String> problems() {
    return problems;
  }
}
