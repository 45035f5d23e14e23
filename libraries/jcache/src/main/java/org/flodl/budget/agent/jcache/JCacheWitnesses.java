package org.flodl.budget.agent.jcache;

import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.library.Witnesses;

/**
 * A JCache cache's witnesses, read through JCache's own API from the cache's configuration as it
 * stands ({@code getConfiguration(CompleteConfiguration.class)}, which both providers keep up to
 * date as listeners are registered and deregistered): a writer it writes through to ({@code
 * isWriteThrough()} with a writer factory) and its entry listeners. JCache has no remove that skips
 * the writer and no eviction event to tell a listener, so a cache with either is not declined.
 */
final class JCacheWitnesses implements Witnesses {
  @Override
  public String of(Object cache) throws ReflectiveOperationException {
    JCacheApi api = JCacheApi.of(cache);
    Object config = api.configuration(cache);
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
