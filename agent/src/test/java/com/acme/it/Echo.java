package com.acme.it;

import java.util.concurrent.ConcurrentHashMap;

/**
 * A value whose pricer ({@link EchoPricer}) puts a copy of its payload into {@link #SIDE}, a cache
 * that is a site of its own, while the agent prices it: code the agent runs reaching a site.
 */
public final class Echo {
  /** The cache the pricer fills. */
  public static final Side SIDE = new Side();

  final int index;
  final byte[] payload;

  Echo(int bytes, int index) {
    this.index = index;
    this.payload = new byte[bytes];
  }

  /** An unbounded cache, {@code com.acme.it.Echo$Side#put} a site of its own. */
  public static final class Side {
    private final ConcurrentHashMap<Object, Object> entries = new ConcurrentHashMap<>();

    /** Caches {@code value} under {@code key}; returns the value it replaced, or null. */
    public Object put(Object key, Object value) {
      return entries.put(key, value);
    }

    /** Returns the number of entries. */
    public int size() {
      return entries.size();
    }
  }
}
