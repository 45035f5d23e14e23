package org.flodl.budget.agent.library;

/**
 * A cache that stores a copy of what it is handed (JCache's store-by-value caches), as its library
 * tells: the agent then holds a value's charge by the cache's entry, for as long as the cache holds
 * the entry, not by the application's object, which the application drops while the copy stays. The
 * library says when an entry leaves through its own protocol (JCache's entry listeners), subscribed
 * out of the application's sight. Found per cache class by {@link Library#copies}.
 */
public interface CopyKeeping {
  /** What the agent is told as a copying cache's entries leave it. */
  interface Exits {
    /** The entry of {@code key} left the cache: removed, expired or evicted. */
    void left(Object key);

    /** Every entry left the cache at once: cleared, closed, destroyed. */
    void allLeft();
  }

  /**
   * Returns whether {@code cache} keeps a copy of what it is handed.
   *
   * @throws ReflectiveOperationException where its configuration cannot be read
   */
  boolean keepsCopies(Object cache) throws ReflectiveOperationException;

  /**
   * Subscribes {@code exits} to the entries that leave {@code cache}, out of the application's
   * sight (its configuration and listeners read as without the agent).
   *
   * @throws ReflectiveOperationException where the library gives no such way for this cache
   */
  void watch(Object cache, Exits exits) throws ReflectiveOperationException;

  /** Returns whether {@code cache} is closed: every entry it held has left. */
  boolean closed(Object cache);
}
