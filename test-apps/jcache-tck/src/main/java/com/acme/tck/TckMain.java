package com.acme.tck;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import javax.cache.Caching;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

/**
 * Runs the JSR-107 TCK's tests, unchanged, against the one JCache provider on the class path and
 * prints one line per test: {@code TCK PASS|FAIL|SKIP Class#method [exception]}, then {@code TCK
 * DONE run=N failed=M provider=NAME}. The test classes are those of the {@code cache-tests} tests
 * jar, less its annotation tests (they need a CDI or Spring container) and abstract bases; {@code
 * --only=Class[,Class]} runs the named ones (simple names).
 */
public final class TckMain {
  private TckMain() {}

  public static void main(String[] args) throws Exception {
    List<String> only = new ArrayList<>();
    for (String a : args) {
      if (a.startsWith("--only=")) {
        only.addAll(List.of(a.substring("--only=".length()).split(",")));
      } else {
        throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    System.out.println("TCK PROVIDER " + Caching.getCachingProvider().getClass().getName());
    List<Class<?>> classes = testClasses(only);
    JUnitCore core = new JUnitCore();
    core.addListener(
        new RunListener() {
          private final java.util.Set<Description> failed =
              java.util.concurrent.ConcurrentHashMap.newKeySet();

          @Override
          public void testFailure(Failure f) {
            failed.add(f.getDescription());
            Throwable t = f.getException();
            System.out.println(
                "TCK FAIL "
                    + name(f.getDescription())
                    + " "
                    + (t == null ? "?" : t.getClass().getName())
                    + ": "
                    + oneLine(t == null ? "" : String.valueOf(t.getMessage())));
          }

          @Override
          public void testAssumptionFailure(Failure f) {
            failed.add(f.getDescription());
            System.out.println("TCK SKIP " + name(f.getDescription()));
          }

          @Override
          public void testIgnored(Description d) {
            System.out.println("TCK SKIP " + name(d));
          }

          @Override
          public void testFinished(Description d) {
            if (!failed.contains(d)) {
              System.out.println("TCK PASS " + name(d));
            }
          }
        });
    Result r = core.run(Request.classes(classes.toArray(new Class<?>[0])));
    System.out.println(
        "TCK DONE run="
            + r.getRunCount()
            + " failed="
            + r.getFailureCount()
            + " classes="
            + classes.size());
    System.exit(0);
  }

  private static String name(Description d) {
    return d.getClassName() + "#" + d.getMethodName();
  }

  private static String oneLine(String s) {
    String t = s.replace('\n', ' ').replace('\r', ' ');
    return t.length() > 200 ? t.substring(0, 200) : t;
  }

  /** The tests jar's concrete {@code *Test} classes, less the annotation tests. */
  private static List<Class<?>> testClasses(List<String> only)
      throws IOException, URISyntaxException, ClassNotFoundException {
    Class<?> marker = Class.forName("org.jsr107.tck.PutTest");
    Path jar = Path.of(marker.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<Class<?>> out = new ArrayList<>();
    try (JarFile f = new JarFile(jar.toFile())) {
      Enumeration<JarEntry> e = f.entries();
      while (e.hasMoreElements()) {
        String n = e.nextElement().getName();
        if (!n.endsWith("Test.class") || n.startsWith("org/jsr107/tck/annotation/")) {
          continue;
        }
        String cn = n.substring(0, n.length() - ".class".length()).replace('/', '.');
        Class<?> c = Class.forName(cn);
        if (Modifier.isAbstract(c.getModifiers())) {
          continue;
        }
        if (!only.isEmpty() && !only.contains(c.getSimpleName())) {
          continue;
        }
        out.add(c);
      }
    }
    out.sort((a, b) -> a.getName().compareTo(b.getName()));
    return out;
  }
}
