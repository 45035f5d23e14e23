package org.flodl.budget.agent.library;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether the application's class path can hold a resource, told without opening a jar: it can
 * unless every entry is a directory without it, a path that is not there, or a jar of the boot
 * class path's append (the agent's own, read there), the system class loader is the JDK's and no
 * module path is set. Anything it cannot tell (a jar, a custom system class loader, an error) it
 * answers yes to, so the caller scans as it would have.
 */
final class ClassPath {
  private ClassPath() {}

  /** Returns whether the system class loader may find {@code resource} outside the boot path. */
  static boolean mayProvide(String resource) {
    try {
      ClassLoader system = ClassLoader.getSystemClassLoader();
      if (!system.getClass().getName().equals("jdk.internal.loader.ClassLoaders$AppClassLoader")) {
        return true;
      }
      String modules = System.getProperty("jdk.module.path");
      if (modules != null && !modules.isEmpty()) {
        return true;
      }
      return mayProvide(
          resource,
          System.getProperty("java.class.path"),
          System.getProperty("jdk.boot.class.path.append"));
    } catch (RuntimeException e) {
      return true;
    }
  }

  /**
   * Returns whether {@code classPath} may hold {@code resource}, the jars of {@code bootAppend}
   * (the boot class path's append) not counted.
   */
  static boolean mayProvide(String resource, String classPath, String bootAppend) {
    try {
      List<Path> boot = entries(bootAppend);
      for (Path p : entries(classPath)) {
        if (Files.isDirectory(p)) {
          if (Files.exists(p.resolve(resource))) {
            return true;
          }
        } else if (Files.exists(p) && !onBootPath(p, boot)) {
          return true;
        }
      }
      return false;
    } catch (RuntimeException | IOException e) {
      return true;
    }
  }

  private static boolean onBootPath(Path p, List<Path> boot) throws IOException {
    for (Path b : boot) {
      if (Files.exists(b) && Files.isSameFile(p, b)) {
        return true;
      }
    }
    return false;
  }

  private static List<Path> entries(String path) {
    List<Path> out = new ArrayList<>();
    if (path == null) {
      return out;
    }
    for (String e : path.split(File.pathSeparator)) {
      // An empty entry is the working directory, as the class loader reads it.
      out.add(Path.of(e.isEmpty() ? "." : e));
    }
    return out;
  }
}
