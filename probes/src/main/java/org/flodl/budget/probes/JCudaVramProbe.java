package org.flodl.budget.probes;

import java.lang.reflect.Method;

/**
 * The {@code jcuda} probe: JCuda's {@code cudaMemGetInfo}, where the application has JCuda and its
 * natives load. Reached by reflection, so JCuda is never a dependency. The device is made current
 * for the call and the calling thread's previous device restored.
 */
final class JCudaVramProbe extends NativeVramProbe {
  private Method getDevice;
  private Method setDevice;
  private Method memGetInfo;
  private Method errorString;

  JCudaVramProbe() {
    super("jcuda");
  }

  @Override
  void open() throws Exception {
    Class<?> jcuda = null;
    for (ClassLoader l :
        new ClassLoader[] {
          Thread.currentThread().getContextClassLoader(), ClassLoader.getSystemClassLoader()
        }) {
      if (l != null && l.getResource("jcuda/runtime/JCuda.class") != null) {
        try {
          jcuda = Class.forName("jcuda.runtime.JCuda", true, l);
          break;
        } catch (Throwable t) {
          throw new IllegalStateException("JCuda did not load: " + Jna.oneLine(Jna.unwrap(t)));
        }
      }
    }
    if (jcuda == null) {
      throw new IllegalStateException("no JCuda on the class path");
    }
    getDevice = jcuda.getMethod("cudaGetDevice", int[].class);
    setDevice = jcuda.getMethod("cudaSetDevice", int.class);
    memGetInfo = jcuda.getMethod("cudaMemGetInfo", long[].class, long[].class);
    errorString = jcuda.getMethod("cudaGetErrorString", int.class);
  }

  @Override
  VramReading readOpen(int device) throws Exception {
    int[] previous = {-1};
    check("cudaGetDevice", (Integer) getDevice.invoke(null, (Object) previous));
    if (previous[0] != device) {
      check("cudaSetDevice(" + device + ")", (Integer) setDevice.invoke(null, device));
    }
    try {
      long[] free = {0};
      long[] total = {0};
      check("cudaMemGetInfo", (Integer) memGetInfo.invoke(null, free, total));
      return VramReading.fromFree(free[0], total[0], name());
    } finally {
      if (previous[0] >= 0 && previous[0] != device) {
        setDevice.invoke(null, previous[0]);
      }
    }
  }

  private void check(String call, int rc) throws Exception {
    if (rc != 0) {
      throw new IllegalStateException(
          call + " failed: " + errorString.invoke(null, rc) + " (" + rc + ")");
    }
  }
}
