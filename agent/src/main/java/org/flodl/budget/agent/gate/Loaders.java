package org.flodl.budget.agent.gate;

/** Returns a class loader as events and lines name it. */
public final class Loaders {
  private Loaders() {}

  /**
   * Returns {@code bootstrap}, or the loader's name when it has one ({@code app}, {@code platform})
   * followed by its class, or its class and identity: {@code
   * org.apache.spark.util.MutableURLClassLoader@1b6d3586}.
   */
  public static String name(ClassLoader loader) {
    if (loader == null) {
      return "bootstrap";
    }
    String type = loader.getClass().getName();
    String name = loader.getName();
    return name != null
        ? name + " (" + type + ")"
        : type + "@" + Integer.toHexString(System.identityHashCode(loader));
  }
}
