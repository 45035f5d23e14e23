package org.flodl.budget.agent.it;

import java.nio.file.Path;
import java.util.List;

/**
 * The cache libraries the agent budgets, the matrix {@link LibraryCacheIT} runs over, as Caffeine's
 * {@code CacheSpec} drives its own: each constant is a library's preset, the test app's cache over
 * it, its releases under test (a folder of jars each, copied by the build), its public interface
 * for sites a user writes, and the calls it loads with. Adding a library to the agent adds one
 * constant here.
 */
enum CacheLibrary {
  CAFFEINE(
      "caffeine",
      "com.acme.libs.CaffeineCache",
      "caffeine",
      "com.github.benmanes.caffeine.cache.Cache",
      "invalidate",
      "get(java.lang.Object,java.util.function.Function)",
      List.of("get:current", "loading:older"),
      null),
  GUAVA(
      "guava",
      "com.acme.libs.GuavaCache",
      "guava",
      "com.google.common.cache.Cache",
      "invalidate",
      "get(java.lang.Object,java.util.concurrent.Callable)",
      List.of("loading:current", "get:older"),
      null),
  EHCACHE(
      "ehcache",
      "com.acme.libs.Ehcache3Cache",
      "ehcache",
      "org.ehcache.Cache",
      "remove",
      null,
      List.of(),
      null),
  JCACHE(
      "jcache",
      "com.acme.libs.JCacheCache",
      "ehcache",
      "javax.cache.Cache",
      "remove",
      null,
      List.of(),
      null),
  /** The library a test adds (docs/LIBRARIES.md): its support and preset are not in the jar. */
  LRUMAP(
      "lrumap",
      "com.acme.libs.LruMapCache",
      "lrumap",
      "org.apache.commons.collections4.map.LRUMap",
      "remove",
      null,
      List.of("get:current"),
      Path.of("src/test/libraries/lrumap"));

  /** The releases each library is tested on. */
  static final List<String> VERSIONS = List.of("current", "older");

  /** The preset's name ({@code presets=NAME}), also the site its decisions are made at. */
  final String preset;

  /** The test app's {@code LibraryCache} over the library. */
  final String appCache;

  /** The library's public type and the calls a sites file names on it. */
  final String api;

  final String remove;

  /** The loading call a sites file names, or null: the library has none the tests use. */
  final String loadingCall;

  /**
   * The styles beyond put that the preset bounds ({@code get}, {@code loading}), each with the
   * release it is tested on ({@code get:current}).
   */
  final List<String> presetLoads;

  /** A class-path folder the support and preset come from, or null: they are the agent's own. */
  final Path support;

  private final String jars;

  CacheLibrary(
      String preset,
      String appCache,
      String jars,
      String api,
      String remove,
      String loadingCall,
      List<String> presetLoads,
      Path support) {
    this.preset = preset;
    this.appCache = appCache;
    this.jars = jars;
    this.api = api;
    this.remove = remove;
    this.loadingCall = loadingCall;
    this.presetLoads = presetLoads;
    this.support = support;
  }

  /** Returns the folder of {@code version}'s jars ({@code current} or {@code older}). */
  Path jars(Path libs, String version) {
    return libs.resolve(jars + "-" + version);
  }
}
