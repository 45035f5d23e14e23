package org.flodl.budget.agent.lrumap;

import org.flodl.budget.agent.library.PresetLibrary;

/**
 * Apache Commons Collections' {@code LRUMap}, budgeted by preset {@code lrumap} alone: the library
 * a test adds, outside the agent jar, to show what adding one takes (docs/LIBRARIES.md). Its
 * services file and preset are in {@code src/test/libraries/lrumap}, which the matrix's child JVMs
 * have on their class path.
 */
public final class LruMapSupport extends PresetLibrary {
  /** Returns the support, as {@link java.util.ServiceLoader} makes it. */
  public LruMapSupport() {
    super(
        "lrumap",
        "every Commons Collections LRUMap's put",
        "org/apache/commons/collections4/map/",
        "org/apache/commons/collections4/map/LRUMap");
  }
}
