package org.flodl.budget.probes;

/**
 * The shape every native GPU probe shares: it opens its library once, lazily, on the first read; a
 * library that will not open makes every later read fail at once with the same reason (a library
 * does not appear while the JVM runs), and a read never throws.
 */
abstract class NativeVramProbe implements VramProbe {
  private final String name;
  private boolean opened;
  private String unavailable;

  NativeVramProbe(String name) {
    this.name = name;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final synchronized VramReading read(int deviceIndex) {
    try {
      if (!opened) {
        opened = true;
        open();
      }
    } catch (Throwable t) {
      unavailable = t instanceof IllegalStateException ? t.getMessage() : Jna.oneLine(t);
    }
    if (unavailable != null) {
      return VramReading.failure(name, unavailable);
    }
    if (deviceIndex < 0) {
      return VramReading.failure(name, "no CUDA device " + deviceIndex);
    }
    try {
      return readOpen(deviceIndex);
    } catch (Throwable t) {
      return VramReading.failure(
          name, t instanceof IllegalStateException ? t.getMessage() : Jna.oneLine(Jna.unwrap(t)));
    }
  }

  /** Returns null once opened, else why this probe cannot work here. */
  final synchronized String unavailable() {
    return opened ? unavailable : null;
  }

  /** Opens the library; throws {@link IllegalStateException} with a one-line reason. */
  abstract void open() throws Exception;

  /** Reads an opened device; throws {@link IllegalStateException} with a one-line reason. */
  abstract VramReading readOpen(int deviceIndex) throws Exception;

  static boolean isMac() {
    return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("mac");
  }

  static boolean isWindows() {
    return System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("win");
  }
}
