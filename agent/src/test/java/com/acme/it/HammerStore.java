package com.acme.it;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The hammer's cache: {@code put} keeps a value (false when the budget skipped it), {@code evict}
 * lets it go.
 */
public final class HammerStore {
  private final ConcurrentHashMap<Object, Object> map = new ConcurrentHashMap<>();

  /** Keeps {@code value} under {@code key}; returns true (a declined call returns false). */
  public boolean put(Object key, Object value) {
    map.put(key, value);
    return true;
  }

  /** Removes and returns the value under {@code key}, or null. */
  public Object evict(Object key) {
    return map.remove(key);
  }

  /** Returns the number of values kept. */
  public int size() {
    return map.size();
  }
}
