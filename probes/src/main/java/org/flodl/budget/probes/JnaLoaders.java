package org.flodl.budget.probes;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Class loaders for the JNA the GPU probes use. An application may ship its own JNA (DJL 0.36 ships
 * 5.17.0, older DJL 5.14.0), and two copies of JNA cannot share one class loader, so the agent's
 * copy lives in an isolated loader whose parent is the platform loader: it sees the JDK and its own
 * jar, the application sees its own JNA, and each copy extracts and loads its own {@code
 * jnidispatch} (JNA 5 does not load a system-wide one unless {@code jna.nosys=false}).
 *
 * <p>What the agent must ship: an unmodified, unrelocated {@code jna-5.17.0.jar} (JNA's native code
 * names its Java classes, so it cannot be relocated) as the resource {@link #NESTED_JAR_RESOURCE}
 * inside its own jar, not on any class path. With no loader given, the probes then use it ({@link
 * #defaultLoader()}); without it they fall back to the application's JNA.
 */
public final class JnaLoaders {
  /** Where the agent jar carries its JNA jar. */
  public static final String NESTED_JAR_RESOURCE = "META-INF/flodl-budget/jna.jar";

  private static ClassLoader defaultLoader;
  private static boolean resolved;

  private JnaLoaders() {}

  /**
   * Returns the JNA the GPU probes use when given none, resolved once, at the first probe that
   * needs it: an isolated loader over the jar this library's own jar carries as {@link
   * #NESTED_JAR_RESOURCE}, else the application's JNA ({@link #application()}), else null.
   */
  public static synchronized ClassLoader defaultLoader() {
    if (!resolved) {
      resolved = true;
      ClassLoader own = JnaLoaders.class.getClassLoader();
      ClassLoader owner =
          own != null ? own : ClassLoader.getSystemClassLoader(); // boot: via system
      try {
        if (owner.getResource(NESTED_JAR_RESOURCE) != null) {
          defaultLoader = fromNestedJar(owner, NESTED_JAR_RESOURCE);
        }
      } catch (IOException | RuntimeException e) {
        defaultLoader = null; // fall back to the application's
      }
      if (defaultLoader == null) {
        defaultLoader = application();
      }
    }
    return defaultLoader;
  }

  /** Returns a loader over {@code jars} that sees nothing of the application's class path. */
  public static ClassLoader isolated(Path... jars) {
    URL[] urls = new URL[jars.length];
    for (int i = 0; i < jars.length; i++) {
      try {
        urls[i] = jars[i].toUri().toURL();
      } catch (MalformedURLException e) {
        throw new IllegalArgumentException("not a jar path: " + jars[i], e);
      }
    }
    return new URLClassLoader("flodl-budget-jna", urls, ClassLoader.getPlatformClassLoader());
  }

  /**
   * Returns an isolated loader over the jar {@code owner} carries as {@code resource}, copied to a
   * temporary file (deleted at exit).
   *
   * @throws IOException when the resource is missing or cannot be copied
   */
  public static ClassLoader fromNestedJar(ClassLoader owner, String resource) throws IOException {
    try (InputStream in = owner.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no " + resource + " in " + owner);
      }
      Path jar = Files.createTempFile("flodl-budget-jna", ".jar");
      jar.toFile().deleteOnExit();
      Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
      return isolated(jar);
    }
  }

  /** Returns the application's own JNA loader (system or context loader), or null when none. */
  public static ClassLoader application() {
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    for (ClassLoader l : new ClassLoader[] {ClassLoader.getSystemClassLoader(), context}) {
      if (l != null && l.getResource("com/sun/jna/Native.class") != null) {
        return l;
      }
    }
    return null;
  }

  /** Returns the version of the JNA {@code loader} holds ({@code Native.VERSION}), or null. */
  public static String version(ClassLoader loader) {
    try {
      return Jna.load(loader).version();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
