package org.flodl.budget.probes;

import java.util.List;

/**
 * The {@code nvml} probe: NVML's {@code nvmlDeviceGetMemoryInfo} through JNA. It creates no CUDA
 * context. Used is reported as {@code total − free} like the CUDA probes (NVML's own {@code used}
 * leaves out what the driver reserves), but NVML's total is the card's full memory, a little more
 * than {@code cudaMemGetInfo}'s. CUDA device indices are mapped through {@code
 * CUDA_VISIBLE_DEVICES} (indices or {@code GPU-}/{@code MIG-} UUIDs); NVML orders devices by PCI
 * bus, so without {@code CUDA_DEVICE_ORDER=PCI_BUS_ID} a mixed-model machine may number them
 * differently from CUDA.
 */
final class NvmlVramProbe extends NativeVramProbe {
  private final ClassLoader jnaLoader;
  private final String visibleDevices;
  private Jna jna;
  private Object byIndex;
  private Object byUuid;
  private Object memoryInfo;
  private Object errorString;

  private final boolean driverCheck;

  NvmlVramProbe(ClassLoader jnaLoader, String visibleDevices) {
    this(jnaLoader, visibleDevices, true);
  }

  /** {@code driverCheck}: look for a driver in Java first ({@link NvidiaDriver}); tests say no. */
  NvmlVramProbe(ClassLoader jnaLoader, String visibleDevices, boolean driverCheck) {
    super("nvml");
    this.jnaLoader = jnaLoader;
    this.visibleDevices = visibleDevices;
    this.driverCheck = driverCheck;
  }

  @Override
  void open() {
    if (isMac()) {
      throw new IllegalStateException("no NVML on macOS");
    }
    String absent = driverCheck ? NvidiaDriver.absence() : null;
    if (absent != null) {
      throw new IllegalStateException(absent);
    }
    jna = Jna.load(jnaLoader != null ? jnaLoader : JnaLoaders.defaultLoader());
    Object nvml =
        jna.library(
            isWindows() ? new String[] {"nvml"} : new String[] {"libnvidia-ml.so.1", "nvidia-ml"});
    errorString = jna.function(nvml, "nvmlErrorString");
    int rc = jna.invokeInt(jna.function(nvml, "nvmlInit_v2"));
    if (rc != 0) {
      throw new IllegalStateException(
          "nvmlInit_v2 failed: " + jna.invokeString(errorString, rc) + " (" + rc + ")");
    }
    byIndex = jna.function(nvml, "nvmlDeviceGetHandleByIndex_v2");
    byUuid = jna.function(nvml, "nvmlDeviceGetHandleByUUID");
    memoryInfo = jna.function(nvml, "nvmlDeviceGetMemoryInfo");
  }

  @Override
  VramReading readOpen(int device) {
    Object handleCell = jna.memory(8);
    String id = nvmlDevice(device, visibleDevices);
    int rc =
        id.startsWith("GPU-") || id.startsWith("MIG-")
            ? jna.invokeInt(byUuid, id, handleCell)
            : jna.invokeInt(byIndex, Integer.parseInt(id), handleCell);
    check("nvmlDeviceGetHandle(" + id + ")", rc);
    Object info = jna.memory(24); // nvmlMemory_t: unsigned long long total, free, used
    check(
        "nvmlDeviceGetMemoryInfo", jna.invokeInt(memoryInfo, jna.getPointer(handleCell, 0), info));
    return VramReading.fromFree(jna.getLong(info, 8), jna.getLong(info, 0), name());
  }

  /**
   * Returns the NVML device (an index or a UUID) that CUDA device {@code device} is, given {@code
   * CUDA_VISIBLE_DEVICES}.
   *
   * @throws IllegalStateException when the device is not visible
   */
  static String nvmlDevice(int device, String visibleDevices) {
    if (visibleDevices == null || visibleDevices.isBlank()) {
      return Integer.toString(device);
    }
    List<String> ids = List.of(visibleDevices.trim().split("\\s*,\\s*"));
    if (device >= ids.size() || ids.get(device).isEmpty() || ids.get(device).startsWith("-")) {
      throw new IllegalStateException(
          "CUDA device "
              + device
              + " is not visible (CUDA_VISIBLE_DEVICES="
              + visibleDevices
              + ")");
    }
    return ids.get(device);
  }

  private void check(String call, int rc) {
    if (rc != 0) {
      throw new IllegalStateException(
          call + " failed: " + jna.invokeString(errorString, rc) + " (" + rc + ")");
    }
  }
}
