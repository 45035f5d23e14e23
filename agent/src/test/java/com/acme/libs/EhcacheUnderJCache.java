package com.acme.libs;

import javax.cache.Cache;
import javax.cache.CacheManager;
import javax.cache.Caching;
import javax.cache.configuration.MutableConfiguration;

/**
 * A JCache cache of Ehcache's provider with the specification's default configuration (store by
 * value), filled through the Ehcache cache under it ({@code unwrap(org.ehcache.Cache.class)}): 20
 * values of 1 MiB put, each read back at once. Prints {@code KEPT=} the values the cache still held
 * when read, then {@code DONE}.
 */
public final class EhcacheUnderJCache {
  private EhcacheUnderJCache() {}

  @SuppressWarnings("unchecked")
  public static void main(String[] args) {
    CacheManager manager =
        Caching.getCachingProvider("org.ehcache.jsr107.EhcacheCachingProvider").getCacheManager();
    Cache<Integer, byte[]> cache =
        manager.createCache(
            "samples",
            new MutableConfiguration<Integer, byte[]>().setTypes(Integer.class, byte[].class));
    cache.put(-1, new byte[16]); // a put through JCache: the agent follows this cache's copies
    org.ehcache.Cache<Integer, byte[]> ehcache = cache.unwrap(org.ehcache.Cache.class);
    int kept = 0;
    for (int i = 0; i < 20; i++) {
      ehcache.put(i, new byte[1 << 20]);
      if (ehcache.get(i) != null) {
        kept++;
      }
    }
    System.out.println("KEPT=" + kept);
    manager.close();
    System.out.println("DONE");
  }
}
