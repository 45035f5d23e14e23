package org.flodl.budget.probes;

/**
 * Hands freed native memory back to the system: glibc's {@code malloc_trim(0)}, called through the
 * JNA the agent carries (in a loader of its own, like the GPU probes). glibc keeps memory that
 * {@code free} returned in its arenas; in a container that memory still counts against the limit.
 * Where the allocator is not glibc (musl, jemalloc preloaded) there is no {@code malloc_trim} to
 * call, and that is said rather than guessed.
 */
public final class NativeHeap {
  private static volatile Object trim;
  private static volatile Jna jna;
  private static volatile String unavailable;

  private NativeHeap() {}

  /**
   * Calls {@code malloc_trim(0)}; returns null when it ran, else why it cannot run here (the same
   * reason every later call).
   */
  public static synchronized String trim() {
    if (unavailable != null) {
      return unavailable;
    }
    try {
      if (trim == null) {
        Jna j = Jna.load(JnaLoaders.defaultLoader());
        Object libc = j.library("c", "libc.so.6");
        trim = j.function(libc, "malloc_trim");
        jna = j;
      }
      jna.invokeInt(trim, 0);
      return null;
    } catch (RuntimeException | LinkageError e) {
      unavailable =
          "malloc_trim is not available ("
              + Jna.oneLine(Jna.unwrap(e))
              + "): the allocator is not glibc, or JNA cannot load";
      return unavailable;
    }
  }
}
