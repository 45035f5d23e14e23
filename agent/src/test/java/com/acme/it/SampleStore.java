package com.acme.it;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/** An unbounded sample cache that knows nothing of any agent: put keeps every value until evict. */
public final class SampleStore {
  private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

  /** Caches {@code value} under {@code key}; returns the value it replaced, or null. */
  public Object put(Object key, Object value) {
    return entries.put(key, value);
  }

  /** Removes and returns the value under {@code key}, or null. */
  public Object evict(Object key) {
    return entries.remove(key);
  }

  /** Returns the cached value under {@code key}, or null. */
  public Object get(Object key) {
    return entries.get(key);
  }

  /** Drops every entry without telling anyone (no release site sees the values). */
  public void clear() {
    entries.clear();
  }

  /** Returns the keys cached now. */
  public List<Object> keys() {
    return new ArrayList<>(entries.keySet());
  }

  /** Returns the number of entries. */
  public int size() {
    return entries.size();
  }
}
