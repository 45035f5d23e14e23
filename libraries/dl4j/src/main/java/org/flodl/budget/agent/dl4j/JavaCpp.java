package org.flodl.budget.agent.dl4j;

import java.lang.reflect.Method;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.library.WatchedClass;

/**
 * JavaCPP's own limits, where ND4J (or any JavaCPP library) is loaded: ND4J's CPU arrays are
 * allocated through {@code org.bytedeco.javacpp.Pointer}, which throws {@code OutOfMemoryError}
 * when {@code totalBytes()} would pass {@code maxBytes()} ({@code -Dorg.bytedeco.javacpp.maxbytes},
 * by default the heap's {@code -Xmx}) or the process's {@code physicalBytes()} would pass {@code
 * maxPhysicalBytes()}, well before host RAM runs out. The native tier's available bytes are the
 * least of host RAM's and these. The class is read by name in the loader that defined it (the
 * transformer sees it load), so the agent carries no JavaCPP.
 */
final class JavaCpp {
  /** The class whose loading the transformer watches for. */
  private static final WatchedClass POINTER = Dl4jSupport.POINTER;

  private static volatile Method[] methods;

  private JavaCpp() {}

  /**
   * Returns the bytes JavaCPP lets this process allocate before it throws: the least of {@code
   * maxBytes - totalBytes} and {@code maxPhysicalBytes - physicalBytes} (a limit of 0 is none), or
   * -1 when JavaCPP is not loaded or cannot be read.
   */
  public static long available() {
    ClassLoader l = POINTER.loader();
    if (l == null) {
      return -1;
    }
    try {
      Method[] m = methods;
      if (m == null) {
        Class<?> pointer = Class.forName(POINTER.binaryName(), false, l);
        m =
            new Method[] {
              pointer.getMethod("maxBytes"),
              pointer.getMethod("totalBytes"),
              pointer.getMethod("maxPhysicalBytes"),
              pointer.getMethod("physicalBytes")
            };
        methods = m;
        Log.info(
            "JavaCPP is loaded: the native tier's available bytes are bounded by its "
                + "maxbytes ("
                + m[0].invoke(null)
                + ") and maxphysicalbytes ("
                + m[2].invoke(null)
                + ")");
      }
      long max = (Long) m[0].invoke(null);
      long total = (Long) m[1].invoke(null);
      long maxPhysical = (Long) m[2].invoke(null);
      long available = Long.MAX_VALUE;
      if (max > 0) {
        available = Math.max(0, max - total);
      }
      if (maxPhysical > 0) {
        long physical = (Long) m[3].invoke(null);
        available = Math.min(available, Math.max(0, maxPhysical - physical));
      }
      return available == Long.MAX_VALUE ? -1 : available;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      POINTER.broken();
      Log.warnOnce(
          "javacpp",
          "JavaCPP's limits cannot be read ("
              + e
              + "); the native tier is "
              + "sized from host RAM alone");
      return -1;
    }
  }
}
