package com.acme.offheap;

import java.util.HashMap;
import java.util.Map;

/** Arguments as key=value pairs, each with a default. */
final class Args {
  private final Map<String, String> values = new HashMap<>();

  Args(String[] args) {
    for (String a : args) {
      int eq = a.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("expected key=value, got " + a);
      }
      values.put(a.substring(0, eq), a.substring(eq + 1));
    }
  }

  int integer(String key, int dflt) {
    String v = values.get(key);
    return v == null ? dflt : Integer.parseInt(v);
  }

  long bytes(String key, long dflt) {
    String v = values.get(key);
    if (v == null) {
      return dflt;
    }
    String s = v.trim().toLowerCase();
    long unit = 1;
    if (s.endsWith("g")) {
      unit = 1L << 30;
    } else if (s.endsWith("m")) {
      unit = 1L << 20;
    } else if (s.endsWith("k")) {
      unit = 1L << 10;
    }
    return Long.parseLong(unit == 1 ? s : s.substring(0, s.length() - 1)) * unit;
  }

  String text(String key, String dflt) {
    return values.getOrDefault(key, dflt);
  }

  /** The float of element {@code j} of sample {@code s}: what every run computes the same. */
  static float value(int s, int j) {
    return ((s * 31 + j * 7) % 1000) / 8f;
  }

  /** The order of the samples in epoch {@code e}: a shuffle seeded by the epoch. */
  static int[] order(int samples, int epoch) {
    int[] out = new int[samples];
    for (int i = 0; i < samples; i++) {
      out[i] = i;
    }
    java.util.Random r = new java.util.Random(1234L + epoch);
    for (int i = samples - 1; i > 0; i--) {
      int k = r.nextInt(i + 1);
      int t = out[i];
      out[i] = out[k];
      out[k] = t;
    }
    return out;
  }
}
