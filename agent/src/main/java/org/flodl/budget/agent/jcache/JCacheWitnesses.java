package org.flodl.budget.agent.jcache;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.agent.library.Witnesses;

/**
 * A JCache cache's witnesses, read through JCache's own API from the cache's configuration as it
 * stands ({@code getConfiguration(CompleteConfiguration.class)}, which both providers keep up to
 * date as listeners are registered and deregistered): a writer it writes through to ({@code
 * isWriteThrough()} with a writer factory) and its entry listeners. JCache has no remove that skips
 * the writer and no eviction event to tell a listener, so a cache with either is not declined.
 */
final class JCacheWitnesses implements Witnesses {
  private static final String CACHE = "javax.cache.Cache";
  private static final String COMPLETE = "javax.cache.configuration.CompleteConfiguration";

  private final ClassValue<Api> apis =
      new ClassValue<>() {
        @Override
        protected Api computeValue(Class<?> c) {
          return Api.of(c);
        }
      };

  /** JCache's methods as the cache's own loader sees them. */
  private record Api(
      Method getConfiguration,
      Method getName,
      Class<?> complete,
      Method isWriteThrough,
      Method writerFactory,
      Method listeners) {
    static Api of(Class<?> c) {
      try {
        Class<?> cache = Types.supertypeNamed(c, CACHE);
        Class<?> complete = Class.forName(COMPLETE, false, cache.getClassLoader());
        return new Api(
            cache.getMethod("getConfiguration", Class.class),
            cache.getMethod("getName"),
            complete,
            complete.getMethod("isWriteThrough"),
            complete.getMethod("getCacheWriterFactory"),
            complete.getMethod("getCacheEntryListenerConfigurations"));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  @Override
  public String of(Object cache) throws ReflectiveOperationException {
    Api api = apis.get(cache.getClass());
    Object config = api.getConfiguration().invoke(cache, api.complete());
    List<String> who = new ArrayList<>(2);
    if (Boolean.TRUE.equals(api.isWriteThrough().invoke(config))
        && api.writerFactory().invoke(config) != null) {
      who.add("writes through to a CacheWriter");
    }
    int listeners = 0;
    for (Object ignored : (Iterable<?>) api.listeners().invoke(config)) {
      listeners++;
    }
    if (listeners > 0) {
      who.add("has " + listeners + " entry listener" + (listeners == 1 ? "" : "s"));
    }
    return who.isEmpty()
        ? null
        : "JCache cache '" + api.getName().invoke(cache) + "' " + String.join(" and ", who);
  }
}
