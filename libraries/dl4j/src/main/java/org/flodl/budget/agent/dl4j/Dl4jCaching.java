package org.flodl.budget.agent.dl4j;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Iterator;
import java.util.Map;
import java.util.WeakHashMap;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.agent.library.Log;

/**
 * ND4J's {@code CachingDataSetIterator} after a declined put ({@code adapter = dl4j}). The iterator
 * reads its source once, putting each DataSet into its cache under the DataSet's index, and from
 * then on serves the cache by index until a key is missing, which it takes for the end of the
 * epoch: a DataSet the agent declined would end every later epoch there. At the entry of {@code
 * hasNext()} this hook learns each iterator's epoch length while it reads its source, and when a
 * later epoch reaches a missing key before that length, it advances the source (brought back to its
 * start by the epoch's {@code reset()}) past the DataSets served from the cache and turns the
 * iterator back to reading it: the declined DataSet and those after it come from the source again,
 * and are offered to the cache again, as in the first epoch. The source has no seek, so reaching
 * DataSet {@code i} builds the {@code i} before it once more. Fields are read by name, so the agent
 * carries no ND4J types; an iterator made over a cache that was already complete (whose length it
 * never saw) is left as it is.
 */
public final class Dl4jCaching implements EntryHook {
  static final String ITERATOR = "org.nd4j.linalg.dataset.api.iterator.CachingDataSetIterator";

  private final ClassValue<Fields> fields =
      new ClassValue<>() {
        @Override
        protected Fields computeValue(Class<?> c) {
          return Fields.of(c);
        }
      };

  /** Each iterator's epoch length, as far as it read its source; weakly held. */
  private final Map<Object, int[]> lengths = new WeakHashMap<>();

  private volatile boolean told;

  @Override
  public String method() {
    return ITERATOR + "#hasNext()";
  }

  @Override
  public void enter(Object iterator) {
    Fields f = fields.get(iterator.getClass());
    if (f == null) {
      return;
    }
    try {
      boolean usingCache = f.usingCache.getBoolean(iterator);
      int index = f.currentIndex.getInt(iterator);
      int length;
      synchronized (lengths) {
        int[] seen = lengths.get(iterator);
        if (!usingCache) {
          if (seen == null) {
            lengths.put(iterator, new int[] {index});
          } else if (index > seen[0]) {
            seen[0] = index;
          }
          return;
        }
        length = seen == null ? 0 : seen[0];
      }
      if (index >= length) {
        return; // the end of the epoch
      }
      Object cache = f.cache.get(iterator);
      String key = (String) f.makeKey.invoke(iterator, index);
      if (cache == null || (Boolean) f.contains.invoke(cache, key)) {
        return;
      }
      Iterator<?> source = (Iterator<?>) f.source.get(iterator);
      for (int i = 0; i < index; i++) {
        if (!source.hasNext()) {
          return; // shorter than it was: the epoch ends where the source does
        }
        source.next();
      }
      f.usingCache.setBoolean(iterator, false);
      if (!told) {
        told = true;
        Log.info(
            "dl4j: DataSet "
                + index
                + " of "
                + length
                + " was not cached (declined); it and "
                + "the rest of the epoch are read from the source again, past the "
                + index
                + " served from the cache (said once)");
      }
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("CachingDataSetIterator could not be read: " + e, e);
    }
  }

  /** The iterator's fields and key method, or null where its class is not the one known. */
  private static final class Fields {
    final Field usingCache;
    final Field currentIndex;
    final Field cache;
    final Field source;
    final Method makeKey;

    /** {@code DataSetCache#contains(String)}, found on the field's declared type. */
    final Method contains;

    private Fields(Field usingCache, Field currentIndex, Field cache, Field source, Method makeKey)
        throws NoSuchMethodException {
      this.usingCache = usingCache;
      this.currentIndex = currentIndex;
      this.cache = cache;
      this.source = source;
      this.makeKey = makeKey;
      this.contains = cache.getType().getMethod("contains", String.class);
    }

    static Fields of(Class<?> c) {
      for (Class<?> k = c; k != null; k = k.getSuperclass()) {
        if (!k.getName().equals(ITERATOR)) {
          continue;
        }
        try {
          Fields f =
              new Fields(
                  k.getDeclaredField("usingCache"),
                  k.getDeclaredField("currentIndex"),
                  k.getDeclaredField("cache"),
                  k.getDeclaredField("sourceIterator"),
                  k.getDeclaredMethod("makeKey", int.class));
          f.usingCache.setAccessible(true);
          f.currentIndex.setAccessible(true);
          f.cache.setAccessible(true);
          f.source.setAccessible(true);
          f.makeKey.setAccessible(true);
          return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
          Log.warnOnce(
              "dl4j-caching",
              "dl4j: "
                  + ITERATOR
                  + " is not the one known ("
                  + e
                  + "): a DataSet the cache declines ends later epochs there");
          return null;
        }
      }
      return null;
    }
  }
}
