package org.flodl.budget.agent.jcache;

import java.lang.reflect.Method;
import org.flodl.budget.agent.library.Types;

/**
 * JCache's own methods the unit reads a cache by, as the cache's loader sees them (the agent links
 * no JCache type): its name, whether it is closed, and its configuration as it stands ({@code
 * getConfiguration(CompleteConfiguration.class)}, which both providers keep up to date as listeners
 * are registered and deregistered). Found once per cache class.
 */
record JCacheApi(
    Method getConfiguration,
    Method getName,
    Method isClosed,
    Class<?> complete,
    Method isWriteThrough,
    Method writerFactory,
    Method listeners,
    Method isStoreByValue) {
  static final String CACHE = "javax.cache.Cache";
  private static final String COMPLETE = "javax.cache.configuration.CompleteConfiguration";

  private static final ClassValue<JCacheApi> OF =
      new ClassValue<>() {
        @Override
        protected JCacheApi computeValue(Class<?> c) {
          try {
            Class<?> cache = Types.supertypeNamed(c, CACHE);
            Class<?> complete = Class.forName(COMPLETE, false, cache.getClassLoader());
            return new JCacheApi(
                cache.getMethod("getConfiguration", Class.class),
                cache.getMethod("getName"),
                cache.getMethod("isClosed"),
                complete,
                complete.getMethod("isWriteThrough"),
                complete.getMethod("getCacheWriterFactory"),
                complete.getMethod("getCacheEntryListenerConfigurations"),
                Class.forName(
                        "javax.cache.configuration.Configuration", false, complete.getClassLoader())
                    .getMethod("isStoreByValue"));
          } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
          }
        }
      };

  /** Returns the API of {@code cache}'s class. */
  static JCacheApi of(Object cache) {
    return OF.get(cache.getClass());
  }

  /** Returns {@code cache}'s configuration as it stands. */
  Object configuration(Object cache) throws ReflectiveOperationException {
    return getConfiguration.invoke(cache, complete);
  }
}
