package org.flodl.budget.probes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code jcuda} probe's reflective path against a stand-in {@code jcuda.runtime.JCuda} compiled
 * for the test (the real JCuda needs a driver), seen through the context class loader as an
 * application's JCuda would be.
 */
class JCudaVramProbeTest {
  private static final String FAKE_JCUDA =
      """
      package jcuda.runtime;
      public class JCuda {
        public static int current = 0;
        public static java.util.List<Integer> sets = new java.util.ArrayList<>();
        public static int cudaGetDevice(int[] d) { d[0] = current; return 0; }
        public static int cudaSetDevice(int d) {
          if (d > 1) return 101;
          sets.add(d); current = d; return 0;
        }
        public static int cudaMemGetInfo(long[] free, long[] total) {
          total[0] = 6360465408L;
          free[0] = 6360465408L - (5592L << 20) + current;
          return 0;
        }
        public static String cudaGetErrorString(int e) {
          return e == 101 ? "invalid device ordinal" : "error " + e;
        }
      }
      """;

  @Test
  void readsThroughJCudaAndRestoresTheThreadsDevice(@TempDir Path dir) throws Exception {
    Path src = Files.createDirectories(dir.resolve("src/jcuda/runtime")).resolve("JCuda.java");
    Files.writeString(src, FAKE_JCUDA);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assumeTrue(javac != null, "a JRE without javac");
    assertEquals(0, javac.run(null, null, null, "-d", classes.toString(), src.toString()));
    ClassLoader previous = Thread.currentThread().getContextClassLoader();
    try (URLClassLoader app =
        new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Thread.currentThread().setContextClassLoader(app);
      Class<?> jcuda = app.loadClass("jcuda.runtime.JCuda");

      VramProbe probe = VramProbes.fromSpec("jcuda");
      VramReading d0 = probe.read(0);
      assertEquals(new VramReading(5592L << 20, 6_360_465_408L, "jcuda", null), d0);
      VramReading d1 = probe.read(1);
      assertEquals((5592L << 20) - 1, d1.usedBytes(), "device 1 was current for the call");
      assertEquals(0, jcuda.getField("current").get(null), "the thread's device is restored");
      assertEquals(List.of(1, 0), jcuda.getField("sets").get(null));
      VramReading bad = probe.read(2);
      assertTrue(bad.failed());
      assertEquals(Long.MAX_VALUE, bad.usedBytes());
      assertEquals("cudaSetDevice(2) failed: invalid device ordinal (101)", bad.failure());

      VramReading auto = VramProbes.fromSpec("auto").read(0);
      assertEquals("jcuda", auto.probe(), "auto tries JCuda first");
      assertNull(auto.failure());
    } finally {
      Thread.currentThread().setContextClassLoader(previous);
    }
  }
}
