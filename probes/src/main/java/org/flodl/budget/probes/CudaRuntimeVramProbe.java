package org.flodl.budget.probes;

/**
 * The {@code cuda} probe: the CUDA runtime's {@code cudaMemGetInfo} through JNA. The driver ({@code
 * libcuda}) is looked up first, so a machine with the runtime but no driver fails at once with that
 * reason instead of inside the runtime. The first call creates the device's primary context if the
 * application has not (hundreds of milliseconds and some VRAM); the {@code nvml} probe does not.
 * The device is made current for the call and the thread's previous one restored.
 */
final class CudaRuntimeVramProbe extends NativeVramProbe {
  private final ClassLoader jnaLoader;
  private Jna jna;
  private Object getDevice;
  private Object setDevice;
  private Object memGetInfo;
  private Object errorName;

  private final boolean driverCheck;

  CudaRuntimeVramProbe(ClassLoader jnaLoader) {
    this(jnaLoader, true);
  }

  /** {@code driverCheck}: look for a driver in Java first ({@link NvidiaDriver}); tests say no. */
  CudaRuntimeVramProbe(ClassLoader jnaLoader, boolean driverCheck) {
    super("cuda");
    this.jnaLoader = jnaLoader;
    this.driverCheck = driverCheck;
  }

  @Override
  void open() {
    if (isMac()) {
      throw new IllegalStateException("no CUDA on macOS");
    }
    String absent = driverCheck ? NvidiaDriver.absence() : null;
    if (absent != null) {
      throw new IllegalStateException(absent);
    }
    jna = Jna.load(jnaLoader != null ? jnaLoader : JnaLoaders.defaultLoader());
    try {
      jna.library(isWindows() ? new String[] {"nvcuda"} : new String[] {"libcuda.so.1", "cuda"});
    } catch (IllegalStateException e) {
      throw new IllegalStateException("no CUDA driver: " + e.getMessage());
    }
    Object cudart =
        jna.library(
            isWindows()
                ? new String[] {"cudart64_13", "cudart64_12", "cudart64_110", "cudart"}
                : new String[] {
                  "cudart", "libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0"
                });
    getDevice = jna.function(cudart, "cudaGetDevice");
    setDevice = jna.function(cudart, "cudaSetDevice");
    memGetInfo = jna.function(cudart, "cudaMemGetInfo");
    errorName = jna.function(cudart, "cudaGetErrorName");
  }

  @Override
  VramReading readOpen(int device) {
    Object previousCell = jna.memory(4);
    check("cudaGetDevice", jna.invokeInt(getDevice, previousCell));
    int previous = jna.getInt(previousCell, 0);
    if (previous != device) {
      check("cudaSetDevice(" + device + ")", jna.invokeInt(setDevice, device));
    }
    try {
      Object free = jna.memory(8);
      Object total = jna.memory(8);
      check("cudaMemGetInfo", jna.invokeInt(memGetInfo, free, total));
      return VramReading.fromFree(jna.getLong(free, 0), jna.getLong(total, 0), name());
    } finally {
      if (previous != device) {
        jna.invokeInt(setDevice, previous);
      }
    }
  }

  private void check(String call, int rc) {
    if (rc != 0) {
      throw new IllegalStateException(
          call + " failed: " + jna.invokeString(errorName, rc) + " (" + rc + ")");
    }
  }
}
