package org.flodl.budget.probes;

import com.sun.jna.Library;
import com.sun.jna.Native;
import java.nio.file.Path;

/**
 * The child JVM of the JNA coexistence test: the application's JNA (on the class path, used the
 * ordinary typed way) and the probes' JNA (an isolated loader over another jar) both call into libc
 * in one JVM, in the order {@code args[1]} gives.
 */
public final class JnaCoexistenceMain {
  private JnaCoexistenceMain() {}

  /** The application's view of libc. */
  public interface CLib extends Library {
    int getpid();
  }

  /**
   * {@code args[0]}: the probes' JNA jar; {@code args[1]}: {@code app-first} or {@code ours-first}.
   */
  public static void main(String[] args) {
    System.out.println("pid=" + ProcessHandle.current().pid());
    if (args[1].equals("nested")) {
      nested();
      return;
    }
    boolean appFirst = args[1].equals("app-first");
    if (appFirst) {
      app("app1");
    }
    ClassLoader ours = JnaLoaders.isolated(Path.of(args[0]));
    Jna jna = Jna.load(ours);
    System.out.println("ours.version=" + jna.version());
    Object libc = jna.library("c", "libc.so.6");
    System.out.println("ours.getpid=" + jna.invokeInt(jna.function(libc, "getpid")));
    System.out.println("ours.loader=" + ours.getName());
    // NVML through our JNA, past the pure-Java driver check: a real library search.
    VramReading nvml = new NvmlVramProbe(ours, null, false).read(0);
    System.out.println("ours.nvml=" + nvml.failure());
    System.out.println("ours.auto=" + VramProbes.fromSpec("auto", ours).read(0).failure());
    app(appFirst ? "app2" : "app1");
    System.out.println("ours.getpid.again=" + jna.invokeInt(jna.function(libc, "getpid")));
  }

  private static void app(String label) {
    CLib c = Native.load("c", CLib.class);
    // Native.VERSION is a constant the compiler inlines (5.17.0 here): ask the loaded class.
    System.out.println(label + ".version=" + JnaLoaders.version(Native.class.getClassLoader()));
    System.out.println(label + ".getpid=" + c.getpid());
    System.out.println(label + ".loader=" + Native.class.getClassLoader());
  }

  /** No JNA on the class path, the agent's jar carrying one: the probes find and use it. */
  private static void nested() {
    System.out.println(
        "app.jna="
            + (ClassLoader.getSystemClassLoader().getResource("com/sun/jna/Native.class") != null));
    ClassLoader found = JnaLoaders.defaultLoader();
    System.out.println("default.loader=" + (found == null ? null : found.getName()));
    System.out.println("default.version=" + JnaLoaders.version(found));
    System.out.println("nvml=" + new NvmlVramProbe(null, null, false).read(0).failure());
  }
}
