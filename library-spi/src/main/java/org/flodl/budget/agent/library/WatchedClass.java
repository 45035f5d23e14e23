package org.flodl.budget.agent.library;

import java.lang.ref.WeakReference;

/**
 * A class a library's support reads by name where the application loads it (DJL's CUDA bindings,
 * JavaCPP's {@code Pointer}): the transformer tells it the loader that defined the class, held
 * weakly, so the agent carries none of the library. Once reading it failed, it is never read again.
 */
public final class WatchedClass {
  private final String internalName;
  private volatile WeakReference<ClassLoader> loader;
  private volatile boolean broken;

  /** Returns the watch of class {@code internalName} ({@code a/b/C}). */
  public WatchedClass(String internalName) {
    this.internalName = internalName;
  }

  /** Returns the class's internal name. */
  public String internalName() {
    return internalName;
  }

  /** Returns the class's binary name ({@code a.b.C}), for {@link Class#forName}. */
  public String binaryName() {
    return internalName.replace('/', '.');
  }

  /** Notes the loader that defined the class (the transformer saw it load). */
  public void seen(ClassLoader definingLoader) {
    if (definingLoader != null) {
      loader = new WeakReference<>(definingLoader);
    }
  }

  /** Returns the loader that defined the class, or null: not loaded, collected, or broken. */
  public ClassLoader loader() {
    WeakReference<ClassLoader> ref = loader;
    return ref == null || broken ? null : ref.get();
  }

  /** Says the class cannot be read: {@link #loader} is null from now on. */
  public void broken() {
    broken = true;
  }
}
