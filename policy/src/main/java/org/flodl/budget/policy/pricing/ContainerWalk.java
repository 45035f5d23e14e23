package org.flodl.budget.policy.pricing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flodl.budget.policy.Tier;

/**
 * One walk over a container the pricer was given (an {@code Object[]}, a collection, a map's
 * values, a DJL NDList or Batch), summing the prices of its parts, each object reached once (an
 * identity set, which also stops cycles). Only containers the walk can rebuild as the same class
 * ({@code Object[]}, {@link ArrayList}, {@link HashMap}, {@link LinkedHashMap}) get their views
 * materialized; inside any other container a view is kept and charged its whole storage. In
 * retain mode the walk returns the container to keep: the original, or a rebuilt one holding the
 * copies. The estimate and the retain walks take the same decisions, so they charge the same.
 */
final class ContainerWalk {
  /** Deeper parts are charged their shallow size. */
  static final int MAX_DEPTH = 32;

  private static final Tier[] TIERS = Tier.values();

  private final RetentionPricer pricer;
  private final boolean copy;
  private final IdentityHashMap<Object, Object> seen = new IdentityHashMap<>();
  private final long[] chargedByTier = new long[TIERS.length];
  private long logical;
  private long storage;
  private long charged;
  private boolean materialized;

  ContainerWalk(RetentionPricer pricer, boolean copy) {
    this.pricer = pricer;
    this.copy = copy;
  }

  /** Returns the value to keep for the top-level container {@code value}. */
  Object visitTop(Object value) throws RetentionException {
    return visit(value, true, 0);
  }

  /** Returns the rows to keep: each row visited as a part that may be copied. */
  List<Object> visitRows(List<?> rows) throws RetentionException {
    List<Object> kept = new ArrayList<>(rows.size());
    for (Object row : rows) {
      kept.add(visit(row, true, 1));
    }
    return kept;
  }

  /** Returns the summed price, named {@code valueType}, on the tier charged the most. */
  Priced priced(String valueType) {
    return new Priced(dominantTier(), valueType, logical, storage, charged, materialized);
  }

  long chargedBytes() {
    return charged;
  }

  boolean materialized() {
    return materialized;
  }

  private Object visit(Object value, boolean mayCopy, int depth) throws RetentionException {
    if (value == null) {
      return null;
    }
    Object done = seen.get(value);
    if (done != null) {
      return done;
    }
    seen.put(value, value);
    Object kept = visitNew(value, mayCopy, depth);
    if (kept != value) {
      seen.put(value, kept);
    }
    return kept;
  }

  private Object visitNew(Object value, boolean mayCopy, int depth) throws RetentionException {
    Kind k = pricer.kind(value);
    if (depth > MAX_DEPTH) {
      add(pricer.priceShallow(value, k));
      return value;
    }
    if (RetentionPricer.isLeaf(k)) {
      return leaf(value, k, pricer.priceLeaf(value, k, mayCopy), null);
    }
    ValuePricer custom = pricer.pricerFor(value);
    if (custom != null) {
      return leaf(value, k, pricer.priceBy(custom, value, k, mayCopy), custom);
    }
    switch (k.shape) {
      case OBJECT_ARRAY:
        return array((Object[]) value, mayCopy, depth);
      case ND_LIST:
      case COLLECTION:
        return collection((Collection<?>) value, mayCopy, depth);
      case MAP:
        return map((Map<?, ?>) value, mayCopy, depth);
      case BATCH:
        batch(value, k, depth);
        return value;
      default:
        add(pricer.priceShallow(value, k));
        return value;
    }
  }

  private Object leaf(Object value, Kind k, Priced price, ValuePricer custom)
      throws RetentionException {
    add(price);
    if (!price.materialize()) {
      return value;
    }
    materialized = true;
    return copy ? pricer.materialize(value, k, price, custom) : value;
  }

  private Object array(Object[] array, boolean mayCopy, int depth) throws RetentionException {
    Object[] kept = null;
    for (int i = 0; i < array.length; i++) {
      Object part = array[i];
      Object keptPart = visit(part, mayCopy, depth + 1);
      if (keptPart != part) {
        if (kept == null) {
          kept = array.clone();
        }
        kept[i] = keptPart;
      }
    }
    return kept == null ? array : kept;
  }

  private Object collection(Collection<?> c, boolean mayCopy, int depth)
      throws RetentionException {
    if (!(mayCopy && c.getClass() == ArrayList.class)) {
      for (Object part : c) {
        visit(part, false, depth + 1);
      }
      return c;
    }
    List<?> list = (List<?>) c;
    ArrayList<Object> kept = null;
    for (int i = 0; i < list.size(); i++) {
      Object part = list.get(i);
      Object keptPart = visit(part, true, depth + 1);
      if (keptPart != part) {
        if (kept == null) {
          kept = new ArrayList<>(list);
        }
        kept.set(i, keptPart);
      }
    }
    return kept == null ? c : kept;
  }

  private Object map(Map<?, ?> m, boolean mayCopy, int depth) throws RetentionException {
    boolean rebuild =
        mayCopy && (m.getClass() == HashMap.class || m.getClass() == LinkedHashMap.class);
    Map<Object, Object> kept = null;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      Object part = e.getValue();
      Object keptPart = visit(part, rebuild, depth + 1);
      if (keptPart != part) {
        if (kept == null) {
          kept = m.getClass() == HashMap.class ? new HashMap<>(m) : new LinkedHashMap<>(m);
        }
        kept.put(e.getKey(), keptPart);
      }
    }
    return kept == null ? m : kept;
  }

  private void batch(Object batch, Kind k, int depth) throws RetentionException {
    try {
      visit((Object) k.batchData.invokeExact(batch), false, depth + 1);
      visit((Object) k.batchLabels.invokeExact(batch), false, depth + 1);
    } catch (RetentionException | RuntimeException e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("Batch could not be read: " + t, t);
    }
  }

  private void add(Priced p) {
    logical = saturatedAdd(logical, p.logicalBytes());
    storage = saturatedAdd(storage, p.storageBytes());
    charged = saturatedAdd(charged, p.chargedBytes());
    int t = p.tier().ordinal();
    chargedByTier[t] = saturatedAdd(chargedByTier[t], p.chargedBytes());
  }

  private Tier dominantTier() {
    int best = Tier.HEAP.ordinal();
    for (int t = 0; t < chargedByTier.length; t++) {
      if (chargedByTier[t] > chargedByTier[best]) {
        best = t;
      }
    }
    return TIERS[best];
  }

  private static long saturatedAdd(long a, long b) {
    long r = a + b;
    return r < 0 ? Long.MAX_VALUE : r;
  }
}
