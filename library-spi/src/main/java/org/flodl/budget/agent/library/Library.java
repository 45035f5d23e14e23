package org.flodl.budget.agent.library;

import java.util.List;
import org.flodl.budget.pricing.TypePricer;

/**
 * One library the agent budgets as a unit ({@code presets=NAME}), found by {@link
 * java.util.ServiceLoader} in {@code META-INF/services/org.flodl.budget.agent.library.Library}: its
 * preset (a sites file shipped as a resource), what {@code suggest} looks for on a class path, and,
 * where the sites-file way is not enough, its adapter, the pricer of its value types, the classes
 * whose loading it watches and its bound on native memory. Every list of libraries the agent has
 * (presets, {@code suggest}, adapters, watches, native bounds) is derived from the libraries found.
 * A library's support class is small and does no work when constructed; it names only the JDK, for
 * its adapter the gate's adapter interfaces, and for its pricer the pricing's SPI.
 */
public interface Library {
  /** The folder of the built-in presets' resources. */
  String PRESETS = "META-INF/flodl-budget/presets/";

  /** Returns the preset's name ({@code presets=NAME}, {@code adapter = NAME}): lower case. */
  String name();

  /** Returns what the preset budgets, in one line ({@code suggest} prints it). */
  String covers();

  /** Returns the package (internal form, ending in {@code /}) of the API the preset budgets. */
  String apiPackage();

  /** Returns a class (internal form) whose presence on a class path means the library is there. */
  String marker();

  /**
   * Returns whether the library has a preset ({@code presets=NAME}); one without (Arrow, Netty)
   * brings its pricing, hooks and bounds alone, whenever the agent runs.
   */
  default boolean hasPreset() {
    return true;
  }

  /** Returns the resource of the preset, in the sites file's format. */
  default String presetResource() {
    return PRESETS + name() + ".properties";
  }

  /**
   * Returns whether the preset is on without being asked for (DJL's: {@code djl=off} turns it off);
   * no other library's is.
   */
  default boolean onByDefault() {
    return false;
  }

  /**
   * Returns the kind of site ({@code cache-admit} or {@code prefetch-depth}) whose {@code adapter =
   * NAME} this library serves, or null when it has no adapter.
   */
  default String adapterKind() {
    return null;
  }

  /**
   * Returns the library's adapter of type {@code type} (the gate's {@code DepthAdapter} or {@code
   * EntryHook}), or null; {@code vramProbe} is the {@code vram_probe} setting (null: auto).
   */
  default <T> T adapter(Class<T> type, String vramProbe) {
    return null;
  }

  /**
   * Returns the pricer of the library's own value types (asked once per class, before the generic
   * pricing law, wherever a site admits one of them, with or without the preset), or null when the
   * generic law prices them. Made once, when the agent's pricer is; it must do no work then.
   */
  default TypePricer typePricer() {
    return null;
  }

  /**
   * Returns how to follow the copies a cache of class {@code c} keeps of what it is handed ({@link
   * CopyKeeping}), or null where {@code c} is no cache of this library's, or its caches store the
   * objects they are handed. Asked once per class, inside the gate.
   */
  default CopyKeeping copies(Class<?> c) {
    return null;
  }

  /**
   * Returns the doors into the library's caches that its preset does not cover, as {@code
   * Type#method} ({@code com.github.benmanes.caffeine.cache.LoadingCache#getAll}): {@code suggest}
   * names the application's calls to them.
   */
  default List<String> uncoveredDoors() {
    return List.of();
  }

  /**
   * Returns how to find who outside a cache of class {@code c} learns of its stores and evictions
   * (its writers and listeners, see {@link Witnesses}), or null where {@code c} is no cache of this
   * library's. Asked once per class, inside the gate; it must do no work until asked.
   */
  default Witnesses witnesses(Class<?> c) {
    return null;
  }

  /**
   * Returns the library's own hooks of type {@code type} (the gate's {@code EntryHook}), woven
   * whenever the agent runs, never through a site: Arrow's allocator close, which first releases
   * the declined values it would report leaked.
   */
  default <T> List<T> hooks(Class<T> type) {
    return List.of();
  }

  /** Returns the classes whose loading the agent tells the library of (their defining loader). */
  default List<WatchedClass> watched() {
    return List.of();
  }

  /**
   * Returns the bytes of native memory the library lets this process allocate before it throws, or
   * -1 when it sets no bound (or is not loaded); the native tier is bounded by the least.
   */
  default long nativeAvailable() {
    return -1;
  }

  /** Returns every library found, the agent's own first, in their order; each name once. */
  static List<Library> all() {
    return Registry.ALL;
  }

  /** Returns the names of {@link #all} that have a preset, in order. */
  static List<String> presetNames() {
    List<String> out = new java.util.ArrayList<>();
    for (Library l : Registry.ALL) {
      if (l.hasPreset()) {
        out.add(l.name());
      }
    }
    return List.copyOf(out);
  }

  /** Returns the names of {@link #all}, in order. */
  static List<String> names() {
    return Registry.NAMES;
  }

  /** Returns the library named {@code name}, or null. */
  static Library named(String name) {
    int i = Registry.NAMES.indexOf(name); // the names as read once, in the order of ALL
    return i < 0 ? null : Registry.ALL.get(i);
  }

  /** Returns the {@link #typePricer}s of {@link #all} that have one, in order. */
  static List<TypePricer> typePricers() {
    List<TypePricer> out = new java.util.ArrayList<>();
    for (Library l : Registry.ALL) {
      try {
        TypePricer p = l.typePricer();
        if (p != null) {
          out.add(p);
        }
      } catch (RuntimeException | LinkageError e) {
        // a support whose pricer cannot be made prices nothing: the generic law does
      }
    }
    return out;
  }

  /**
   * Says that a library's bound ({@link #nativeAvailable}) has a new source (Arrow's: an allocator
   * first seen): the next native decision refreshes the budgets before it is taken.
   */
  static void boundChanged() {
    Registry.BOUND_CHANGES.incrementAndGet();
  }

  /** Returns how many times {@link #boundChanged} was said. */
  static long boundChanges() {
    return Registry.BOUND_CHANGES.get();
  }

  /** Returns the lines that say which library supports could not be loaded (none: empty). */
  static List<String> problems() {
    return Registry.PROBLEMS;
  }

  /**
   * Returns host RAM's {@code available} bytes (-1: unknown) bounded by the least of the libraries'
   * {@link #nativeAvailable} bounds (JavaCPP's limits, where ND4J is loaded: they throw first), or
   * {@code available} itself where no library sets one.
   */
  static long nativeBound(long available) {
    long least = available;
    for (Library l : Registry.ALL) {
      long b;
      try {
        b = l.nativeAvailable();
      } catch (RuntimeException | LinkageError e) {
        continue; // a support that cannot read its own bound sets none
      }
      if (b >= 0 && (least < 0 || b < least)) {
        least = b;
      }
    }
    return least;
  }
}
