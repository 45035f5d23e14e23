package org.flodl.budget.agent.library;

/**
 * Who outside a cache learns of what the cache stores and evicts: a writer it writes through to, a
 * listener of its evictions or removals, read from one cache's own configuration as its library
 * made it. A declined call stores nothing and its decline call removes the key, so such a witness
 * would learn less than storing and evicting the value would have told it (a write never made) or
 * more (a delete the application never asked for): the agent does not decline calls on a cache that
 * has one, and steers its own size bound where the library offers one ({@link #bound}). Found per
 * cache class by {@link Library#witnesses}; asked at each decline, since a cache's listeners can
 * change while it runs.
 */
@FunctionalInterface
public interface Witnesses {
  /**
   * Returns the cache and its witnesses in a few words ({@code "JCache cache 'rows' writes through
   * to a CacheWriter"}), or null when nothing outside {@code cache} learns of its stores and
   * evictions.
   *
   * @throws ReflectiveOperationException when the configuration cannot be read: the cache is then
   *     not declined either
   */
  String of(Object cache) throws ReflectiveOperationException;

  /**
   * Returns the size bound of {@code cache} that the agent may steer in place of declining its
   * calls ({@link Bound}), or null where the cache has none (unbounded, or a library whose bound
   * cannot be moved while it runs): such a cache is admitted unbooked, as {@code WOULD_DECLINE}.
   *
   * @throws ReflectiveOperationException when the cache's bound cannot be read
   */
  default Bound bound(Object cache) throws ReflectiveOperationException {
    return null;
  }
}
