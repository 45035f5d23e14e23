package org.flodl.budget.agent.library;

/**
 * A library's wrapper of an argument through which a cache stores values of its own accord
 * (JCache's entry processor, whose entry's {@code setValue} stores when {@code invoke} returns):
 * the wrapper brings each value stored through a decision against the cache. Bound by {@code
 * adapter = NAME} on a cache-admit site whose {@code value} is that argument; the argument itself
 * is not priced. The wrapper answers for the values it declines as if they had been stored and
 * evicted at once.
 */
public interface ArgumentAdapter {
  /** A decision on one value the wrapped argument stores into a cache. */
  @FunctionalInterface
  interface Decider {
    /**
     * Returns the value to store under {@code key} (the value, or its owned copy), or null where
     * {@code value} is declined: nothing is stored, as if it had been stored and evicted at once.
     */
    Object decide(Object key, Object value);
  }

  /**
   * Returns what to pass to {@code cache}'s method instead of {@code argument}, whose stores are
   * decided by {@code decider}; {@code argument} itself where it cannot be wrapped.
   */
  Object wrap(Object cache, Object argument, Decider decider);
}
