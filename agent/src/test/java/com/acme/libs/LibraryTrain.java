package com.acme.libs;

import java.util.zip.CRC32;

/**
 * A training loop over a library cache: every sample of every epoch is read through the cache
 * (decoded on a miss) and trained on (a checksum of what it saw), so with an unbounded cache 200
 * samples of 1 MiB end in OutOfMemoryError at -Xmx128m. Options {@code --key=value}: cache (the
 * {@link LibraryCache} class, e.g. com.acme.libs.CaffeineCache), style (put: getIfPresent then put;
 * get: get(key, loader); loading: a loading cache's get), samples, bytes, epochs, overwrite (first
 * put a 1 KiB v1 under a key, then a 64 MiB v2, and print which one get returns). Prints {@code
 * DELIVERED=}, {@code CHECKSUM=}, {@code CACHED=} and {@code DONE}.
 */
public final class LibraryTrain {
  private LibraryTrain() {}

  public static void main(String[] args) throws Exception {
    String cacheClass = CaffeineCache.class.getName();
    String style = "put";
    int samples = 200;
    int bytes = 1 << 20;
    int epochs = 2;
    boolean overwrite = false;
    for (String a : args) {
      String key = a.substring(2, a.indexOf('=') < 0 ? a.length() : a.indexOf('='));
      String value = a.indexOf('=') < 0 ? "true" : a.substring(a.indexOf('=') + 1);
      switch (key) {
        case "cache" -> cacheClass = value;
        case "style" -> style = value;
        case "samples" -> samples = Integer.parseInt(value);
        case "bytes" -> bytes = Integer.parseInt(value);
        case "epochs" -> epochs = Integer.parseInt(value);
        case "overwrite" -> overwrite = true;
        default -> throw new IllegalArgumentException(a);
      }
    }
    int size = bytes;
    LibraryCache cache = LibraryCache.of(cacheClass, k -> decode(k, size));
    if (overwrite) {
      cache.put(-1, new byte[1024]);
      byte[] v2 = new byte[64 << 20];
      cache.put(-1, v2);
      byte[] got = cache.getIfPresent(-1);
      System.out.println("OVERWRITE=" + (got == null ? "null" : got.length == 1024 ? "v1" : "v2"));
    }
    long checksum = 0;
    long delivered = 0;
    for (int e = 0; e < epochs; e++) {
      for (int i = 0; i < samples; i++) {
        int k = (int) ((i * 7919L + e * 31L) % samples); // a shuffled order, the same every run
        byte[] v =
            switch (style) {
              case "get" -> cache.get(k, key -> decode(key, size));
              case "loading" -> cache.getLoaded(k);
              default -> {
                byte[] hit = cache.getIfPresent(k);
                if (hit == null) {
                  hit = decode(k, size);
                  cache.put(k, hit);
                }
                yield hit;
              }
            };
        checksum = checksum * 31 + train(k, v);
        delivered++;
      }
    }
    System.out.println("DELIVERED=" + delivered);
    System.out.println("CHECKSUM=" + checksum);
    System.out.println("CACHED=" + cache.size());
    System.out.println("DONE");
  }

  /** The sample of key {@code k}: the same bytes every time it is decoded. */
  static byte[] decode(int k, int size) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i += 4096) {
      b[i] = (byte) (k * 31 + i / 4096);
    }
    b[size - 1] = (byte) k;
    return b;
  }

  static long train(int k, byte[] v) {
    CRC32 crc = new CRC32();
    crc.update(v, 0, Math.min(v.length, 8192));
    return crc.getValue() ^ ((long) k << 32) ^ v.length;
  }
}
