package org.flodl.budget.pricing;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/** The frames of a {@link Walk}: one kind of container each. */
final class Frames {
  private Frames() {}

  static final class ArrayFrame extends Frame {
    final Object[] array;
    final boolean mayCopy;
    Object[] kept;
    int index;

    ArrayFrame(Walk walk, Object[] array, boolean mayCopy) {
      super(walk, array);
      this.array = array;
      this.mayCopy = mayCopy;
    }

    @Override
    Object next() {
      return index < array.length ? array[index++] : PUSHED;
    }

    @Override
    long remaining() {
      return array.length - index;
    }

    @Override
    boolean copiesChildren() {
      return mayCopy;
    }

    @Override
    void childDone(Object child, Object keptChild) {
      examined++;
      if (keptChild != child && walk.copies != null) {
        if (kept == null) {
          kept = array.clone();
        }
        kept[index - 1] = keptChild;
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? array : kept;
      walk.keep(array, out);
      return out;
    }
  }

  /** A {@link java.util.RandomAccess} list, read by index: no iterator is made. */
  static final class ListFrame extends Frame {
    final List<?> list;
    final boolean rebuild;
    final int size;
    ArrayList<Object> kept;
    int index;

    ListFrame(Walk walk, List<?> list, boolean mayCopy) {
      super(walk, list);
      this.list = list;
      this.rebuild = mayCopy && list.getClass() == ArrayList.class;
      this.size = list.size();
    }

    @Override
    Object next() {
      if (index >= size) {
        if (list.size() != size) {
          throw new ConcurrentModificationException("the list's size changed from " + size);
        }
        return PUSHED;
      }
      return list.get(index++);
    }

    @Override
    long remaining() {
      return size - index;
    }

    @Override
    boolean copiesChildren() {
      return rebuild;
    }

    @Override
    void childDone(Object child, Object keptChild) {
      examined++;
      if (keptChild != child && walk.copies != null && rebuild) {
        if (kept == null) {
          kept = new ArrayList<>(list);
        }
        kept.set(index - 1, keptChild);
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? list : kept;
      walk.keep(list, out);
      return out;
    }
  }

  /** Any other collection, iterated: its iterator is drawn at most as often as the walk visits. */
  static final class IteratorFrame extends Frame {
    final Collection<?> collection;
    Iterator<?> it;
    long drawn;

    IteratorFrame(Walk walk, Collection<?> collection) {
      super(walk, collection);
      this.collection = collection;
    }

    @Override
    Object next() {
      if (it == null) {
        it = collection.iterator();
      }
      if (!it.hasNext()) {
        return PUSHED;
      }
      drawn++;
      return it.next();
    }

    @Override
    long remaining() {
      long left = (long) collection.size() - drawn;
      if (left <= 0 && it != null && it.hasNext()) {
        throw new PricingException(
            "UNBOUNDED",
            "its iterator went on past its size() of "
                + collection.size()
                + " and past the walk's bound of "
                + Walk.MAX_VISITS,
            null);
      }
      return left;
    }
  }

  /** A map's keys and values, entry by entry; HashMaps and LinkedHashMaps can be rebuilt. */
  static final class MapFrame extends Frame {
    final Map<?, ?> map;
    final boolean rebuild;
    Iterator<? extends Map.Entry<?, ?>> it;
    Map.Entry<?, ?> entry;
    boolean valueNext;
    long drawn;
    Map<Object, Object> kept;

    MapFrame(Walk walk, Map<?, ?> map, boolean mayCopy) {
      super(walk, map);
      this.map = map;
      this.rebuild =
          mayCopy && (map.getClass() == HashMap.class || map.getClass() == LinkedHashMap.class);
    }

    @Override
    Object next() {
      if (valueNext) {
        valueNext = false;
        return entry.getValue();
      }
      if (it == null) {
        it = map.entrySet().iterator();
      }
      if (!it.hasNext()) {
        return PUSHED;
      }
      drawn++;
      entry = it.next();
      valueNext = true;
      return entry.getKey();
    }

    @Override
    long remaining() {
      long left = 2 * ((long) map.size() - drawn) + (valueNext ? 1 : 0);
      if (left <= 0 && it != null && it.hasNext()) {
        throw new PricingException(
            "UNBOUNDED",
            "its entries went on past its size() of "
                + map.size()
                + " and past the walk's bound of "
                + Walk.MAX_VISITS,
            null);
      }
      return left;
    }

    @Override
    boolean copiesChildren() {
      return rebuild && !valueNext; // a value (not a key) was just handed out
    }

    @Override
    void childDone(Object child, Object keptChild) {
      examined++;
      if (keptChild != child && walk.copies != null && rebuild && !valueNext) {
        if (kept == null) {
          kept = map.getClass() == HashMap.class ? new HashMap<>(map) : new LinkedHashMap<>(map);
        }
        kept.put(entry.getKey(), keptChild);
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? map : kept;
      walk.keep(map, out);
      return out;
    }
  }

  /** An application object's reference fields. */
  static final class FieldsFrame extends Frame {
    final Field[] fields;
    int index;

    FieldsFrame(Walk walk, Object value, Field[] fields) {
      super(walk, value);
      this.fields = fields;
    }

    @Override
    Object next() {
      if (index >= fields.length) {
        return PUSHED;
      }
      try {
        return fields[index++].get(container);
      } catch (IllegalAccessException e) {
        return null;
      }
    }

    @Override
    long remaining() {
      return fields.length - index;
    }
  }

  /**
   * A value its pricer takes apart ({@link ValuePricer#parts}): rebuilt by that pricer around the
   * copies when a part was materialized and the pricer can rebuild it, else kept as it is.
   */
  static final class PartsFrame extends Frame {
    final Kind kind;
    final ValuePricer by;
    final boolean rebuild;
    final Object[] parts;
    boolean replaced;
    int index;

    PartsFrame(
        Walk walk, Object value, Kind kind, ValuePricer by, Object[] parts, boolean mayCopy) {
      super(walk, value);
      this.kind = kind;
      this.by = by;
      this.rebuild = mayCopy && by.canRebuild(value);
      this.parts = parts.clone();
    }

    @Override
    Object next() {
      return index < parts.length ? parts[index++] : PUSHED;
    }

    @Override
    long remaining() {
      return parts.length - index;
    }

    @Override
    boolean copiesChildren() {
      return rebuild;
    }

    @Override
    void childDone(Object child, Object keptChild) {
      examined++;
      if (keptChild != child && walk.copies != null && rebuild) {
        parts[index - 1] = keptChild;
        replaced = true;
      }
    }

    @Override
    Object result() {
      Object out = replaced ? by.rebuild(container, parts) : container;
      if (out == null) {
        throw new IllegalStateException(kind.typeName + " could not be rebuilt");
      }
      walk.keep(container, out);
      return out;
    }
  }

  /** A CompletableFuture: its value, once it is complete (a pending one holds nothing yet). */
  static final class FutureFrame extends Frame {
    boolean done;

    FutureFrame(Walk walk, CompletableFuture<?> future) {
      super(walk, future);
    }

    @Override
    Object next() {
      if (done) {
        return PUSHED;
      }
      done = true;
      CompletableFuture<?> f = (CompletableFuture<?>) container;
      return f.isDone() && !f.isCompletedExceptionally() ? f.getNow(null) : null;
    }

    @Override
    long remaining() {
      return done ? 0 : 1;
    }
  }
}
