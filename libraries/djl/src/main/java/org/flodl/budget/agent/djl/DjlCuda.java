package org.flodl.budget.agent.djl;

import java.lang.management.MemoryUsage;
import java.lang.reflect.Method;
import org.flodl.budget.agent.library.WatchedClass;
import org.flodl.budget.probes.VramReading;

/**
 * The VRAM probe DJL already carries: when the application has loaded DJL's {@code
 * ai.djl.util.cuda.CudaUtils} (its CUDA bindings, loaded by DJL's GPU engines) and {@code
 * vram_probe=auto}, a GPU epoch reads {@code CudaUtils.getGpuMemory(device)} (cudaMemGetInfo in
 * this process) instead of loading a second binding. Not used when DJL is told to fork a JVM per
 * reading ({@code -Dai.djl.util.cuda.fork=true}). Returns null whenever it cannot answer; the
 * agent's own probe chain then reads.
 */
final class DjlCuda {
  /** DJL's CUDA bindings, watched for as they load. */
  private static final WatchedClass CUDA_UTILS = DjlSupport.CUDA_UTILS;

  private static volatile Method[] methods;

  private DjlCuda() {}

  /** Returns whether DJL's CUDA bindings are loaded in this process. */
  static boolean available() {
    return CUDA_UTILS.loader() != null;
  }

  /** Returns DJL's reading of {@code device} (a DJL Device on a GPU), or null. */
  static VramReading read(Object device) {
    if (device == null || !available() || Boolean.getBoolean("ai.djl.util.cuda.fork")) {
      return null;
    }
    try {
      Method[] m = methods;
      if (m == null) {
        Class<?> cu = Class.forName(CUDA_UTILS.binaryName(), false, CUDA_UTILS.loader());
        Class<?> dev = Class.forName("ai.djl.Device", false, cu.getClassLoader());
        m = new Method[] {cu.getMethod("hasCuda"), cu.getMethod("getGpuMemory", dev)};
        methods = m;
      }
      if (!(Boolean) m[0].invoke(null)) {
        return null;
      }
      MemoryUsage mu = (MemoryUsage) m[1].invoke(null, device);
      if (mu == null || mu.getMax() <= 0) {
        return null;
      }
      return new VramReading(Math.max(0, mu.getUsed()), mu.getMax(), "djl", null);
    } catch (Throwable t) {
      CUDA_UTILS.broken();
      org.flodl.budget.agent.library.Log.warnOnce(
          "djl-cuda",
          "DJL's CUDA bindings could not be "
              + "read ("
              + t
              + "); the agent's own VRAM probes answer instead");
      return null;
    }
  }
}
