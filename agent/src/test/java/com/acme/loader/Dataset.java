package com.acme.loader;

import java.util.HashMap;
import java.util.Map;

/** A hand-written dataset: decoded rows kept in a plain HashMap field, never evicted. */
public final class Dataset {
  private final Map<Integer, byte[]> cache = new HashMap<>();
  private final int rowBytes;

  public Dataset(int rowBytes) {
    this.rowBytes = rowBytes;
  }

  /** Returns row {@code i}, decoding it on a miss. */
  public byte[] get(int i) {
    byte[] row = cache.get(i);
    if (row == null) {
      row = decode(i);
      cache.put(i, row);
    }
    return row;
  }

  /** Drops every row (the end of training). */
  public int close(int rows) {
    int dropped = 0;
    for (int i = 0; i < rows; i++) {
      if (cache.remove(i) != null) {
        dropped++;
      }
    }
    return dropped;
  }

  /** Returns how many rows are cached. */
  public int cached() {
    return cache.size();
  }

  private byte[] decode(int i) {
    byte[] b = new byte[rowBytes];
    for (int p = 0; p < rowBytes; p += 4096) {
      b[p] = (byte) (i * 17 + p / 4096);
    }
    return b;
  }
}
