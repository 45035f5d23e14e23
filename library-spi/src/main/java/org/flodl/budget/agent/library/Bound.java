package org.flodl.budget.agent.library;

/**
 * A cache's own size bound, as its library keeps it, that the agent may move while the cache runs
 * (Caffeine's maximum, a Guava cache's segments' weights): the way a cache whose writers or
 * listeners ({@link Witnesses}) a decline would mislead is still held to the budget. The cache
 * keeps admitting what it is handed; the library evicts what its own policy picks, with its own
 * cause, on its own executor or at its own next write, and tells its own listeners. Units are the
 * library's: entries, or its weigher's weights.
 */
public interface Bound {
  /** Returns the object that keeps the bound (one per cache, whatever view reached it). */
  Object cache();

  /** Returns the bound in force now. */
  long maximum() throws ReflectiveOperationException;

  /** Returns what the cache holds now, in the bound's units (an estimate under writes). */
  long size() throws ReflectiveOperationException;

  /** Returns the entries the cache holds now (an estimate under writes). */
  long entries() throws ReflectiveOperationException;

  /**
   * Returns the least bound the agent may set: one entry, or as many as the library needs to keep
   * each newest entry (one a segment).
   */
  long least() throws ReflectiveOperationException;

  /**
   * Sets the bound to {@code maximum}; the library evicts down to it its own way (now, on its
   * executor, or at its next writes). Never waits on the cache's own locks longer than a write of
   * the application would.
   */
  void set(long maximum) throws ReflectiveOperationException;
}
