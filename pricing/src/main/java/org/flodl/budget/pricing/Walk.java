package org.flodl.budget.pricing;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;

/**
 * One bounded walk over a value the pricer was given (an array of references, a collection, a map's
 * keys and values, an application object's reference fields, a DJL NDList or Batch), summing what
 * its parts pin, each object reached once (an identity set, which also stops cycles). The walk
 * keeps its own stack (never the thread's), refuses a value nested deeper than {@value #MAX_DEPTH},
 * or cut by its bound below more than {@value #CHAIN_LINKS} single links (a linked ring of a
 * million nodes: no bounded walk can tell its size), and stops at {@value #MAX_VISITS} visits (each
 * object, and each slot or element looked at, null or not) or when {@code deadline} passes; what it
 * did not reach is extrapolated, container by container, as the elements left times the mean price
 * of the elements walked there, and the price says {@code estimated}. An iterator is never drawn
 * more times than the bound, and the walk allocates nothing in proportion to the graph beyond what
 * it visits. A value whose own code throws while walked, that changes under the walk, or that has
 * more left than its {@code size()} says, is a {@link PricingException}: the caller declines it.
 *
 * <p>Only containers the walk can rebuild as the same class ({@code Object[]}, {@link ArrayList},
 * {@link HashMap}, {@link LinkedHashMap}, an ND4J DataSet or MultiDataSet with the public
 * constructor of its four parts) get their views materialized; inside any other container a view is
 * kept and charged its whole storage. In retain mode the walk returns the container to keep: the
 * original, or a rebuilt one holding the copies.
 */
final class Walk {
  /** The most objects and slots one walk looks at. */
  static final int MAX_VISITS = 1 << 16;

  /** The most time one estimate takes, in nanoseconds. */
  static final long MAX_NANOS = 1_000_000L;

  /**
   * The deepest nesting walked: a value nested deeper (a linked ring, lists in lists) has a size no
   * bounded walk can tell, and cannot be priced.
   */
  static final int MAX_DEPTH = 256;

  /** A walk cut below more single links than this (a chain, not a tree) cannot extrapolate. */
  static final int CHAIN_LINKS = 16;

  /** The least share of the walk a nested container gets. */
  private static final long MIN_SHARE = 4;

  /** The visits kept for each sibling still to come when a container's share is given. */
  private static final long SIBLING_RESERVE = 16;

  /** How often the clock is read, in visits. */
  private static final int CLOCK_EVERY = 64;

  private static final Tier[] TIERS = Tier.values();
  private static final Object PUSHED = new Object();

  private final RetentionPricer pricer;
  private final Layout layout;
  private final boolean copy;
  private final LongSupplier clock;
  private final long deadline;
  private final IdentityHashMap<Object, Object> seen = new IdentityHashMap<>();
  private final ArrayList<Frame> stack = new ArrayList<>();
  private final long[] chargedByTier = new long[TIERS.length];
  private long logical;
  private long storage;
  private long charged;
  private long extrapolated;
  private int visits;
  private boolean stopped;
  private boolean truncated;
  private boolean materialized;
  private long walkedChildren;

  /**
   * Returns a walk; {@code clock} null walks without a time bound (a retain walk copies what it
   * reaches, whatever that takes, bounded by the visits alone so it reaches what the estimate did).
   */
  Walk(RetentionPricer pricer, Layout layout, boolean copy, LongSupplier clock) {
    this.pricer = pricer;
    this.layout = layout;
    this.copy = copy;
    this.clock = clock;
    this.deadline = clock == null ? Long.MAX_VALUE : clock.getAsLong() + MAX_NANOS;
  }

  /** Returns the value to keep for the top-level container {@code value}. */
  Object visitTop(Object value) throws RetentionException {
    try {
      Object kept = enter(value, true, null);
      return kept == PUSHED ? run() : kept;
    } catch (PricingException | RetentionException e) {
      throw e;
    } catch (ConcurrentModificationException | IndexOutOfBoundsException e) {
      throw new PricingException("CHANGED", "it changed while it was priced (" + e + ")", e);
    } catch (OutOfMemoryError e) {
      throw new PricingException("MEMORY", "the pricer ran out of memory walking it", e);
    } catch (RuntimeException | LinkageError | StackOverflowError e) {
      throw new PricingException("THREW", "its own code threw while it was priced (" + e + ")", e);
    }
  }

  /** Returns the rows to keep: each row visited as a part that may be copied. */
  List<Object> visitRows(List<?> rows) throws RetentionException {
    List<Object> kept = new ArrayList<>(rows.size());
    for (Object row : rows) {
      kept.add(visitTop(row));
    }
    return kept;
  }

  /** Returns the summed price, named {@code valueType}, on the tier charged the most. */
  Priced priced(String valueType) {
    return new Priced(
        dominantTier(),
        valueType,
        logical,
        storage,
        charged,
        materialized,
        truncated,
        extrapolated);
  }

  long chargedBytes() {
    return charged;
  }

  boolean materialized() {
    return materialized;
  }

  // ------------------------------------------------------------------------------ the loop

  private Object run() throws RetentionException {
    Object top = null;
    while (!stack.isEmpty()) {
      Frame f = stack.get(stack.size() - 1);
      boolean cut = stopped || f.budget <= 0;
      if (cut) {
        refuseChain();
      }
      Object child = cut ? PUSHED : f.next();
      if (child == PUSHED) { // the frame is done, or its share of the walk is spent
        stack.remove(stack.size() - 1);
        if (cut) {
          truncated = true;
          extrapolate(f);
        }
        Object kept = f.result();
        Frame parent = stack.isEmpty() ? null : stack.get(stack.size() - 1);
        if (parent == null) {
          top = kept;
        } else {
          parent.spent += f.spent;
          parent.budget -= f.spent;
          parent.childDone(f.container, kept);
        }
        continue;
      }
      f.budget--;
      f.spent++;
      walkedChildren++;
      // The shares keep the walk to MAX_VISITS children; the count is the backstop, and the clock
      // is read now and then.
      if (++visits >= MAX_VISITS
          || clock != null && (visits % CLOCK_EVERY) == 0 && clock.getAsLong() > deadline) {
        stopped = true;
      }
      Object kept = enter(child, f.copiesChildren(), f);
      if (kept != PUSHED) {
        f.childDone(child, kept);
      }
    }
    return top;
  }

  /**
   * Refuses a walk cut down a chain: frames each with one child, handed out and not finished, have
   * nothing beside it to extrapolate from, so what hangs below them (the rest of a linked ring, of
   * lists nested in lists) is unknown. A wide value cut by its bound has siblings at each level.
   */
  private void refuseChain() {
    if (stack.size() <= CHAIN_LINKS) {
      return;
    }
    int links = 0;
    for (int i = 0; i < stack.size() - 1; i++) {
      Frame f = stack.get(i);
      if (f.examined == 0 && f.left() == 0) {
        links++;
      }
    }
    if (links > CHAIN_LINKS) {
      throw new PricingException(
          "UNBOUNDED",
          "the walk reached its bound "
              + stack.size()
              + " deep down a chain of "
              + links
              + " single links (a linked structure?): its size "
              + "cannot be told",
          null);
    }
  }

  /**
   * Prices {@code value} and returns what to keep, or {@link #PUSHED} when it is a container whose
   * frame now waits on the stack.
   */
  private Object enter(Object value, boolean mayCopy, Frame parent) throws RetentionException {
    if (value == null) {
      return null;
    }
    Object done = seen.get(value);
    if (done != null) {
      return done;
    }
    seen.put(value, value);
    Kind k = pricer.kind(value);
    if (RetentionPricer.isLeaf(k)) {
      return leaf(value, k, pricer.priceLeaf(value, k, mayCopy), null);
    }
    ValuePricer custom = pricer.pricerFor(value);
    if (custom != null) {
      return leaf(value, k, pricer.priceBy(custom, value, k, mayCopy), custom);
    }
    Frame f;
    switch (k.shape) {
      case OBJECT_ARRAY:
        add(Tier.HEAP, layout.references(((Object[]) value).length));
        f = new ArrayFrame((Object[]) value, mayCopy);
        break;
      case COLLECTION:
      case ND_LIST:
        add(
            Tier.HEAP,
            pricer.shallowSize(value) + structure(value, k, ((Collection<?>) value).size()));
        f =
            k.randomAccess
                ? new ListFrame((List<?>) value, mayCopy)
                : new IteratorFrame((Collection<?>) value);
        break;
      case MAP:
        add(Tier.HEAP, pricer.shallowSize(value) + structure(value, k, ((Map<?, ?>) value).size()));
        f = new MapFrame((Map<?, ?>) value, mayCopy);
        break;
      case FIELDS:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new FieldsFrame(value, k.fields);
        break;
      case BATCH:
      case ND4J_PARTS:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new PartsFrame(value, k, mayCopy);
        break;
      case FUTURE:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new FutureFrame((CompletableFuture<?>) value);
        break;
      case SHARED:
        return value; // the JVM's, not this value's
      default:
        add(Tier.HEAP, pricer.shallowSize(value));
        return value;
    }
    if (stack.size() >= MAX_DEPTH) {
      throw new PricingException(
          "UNBOUNDED",
          "it nests deeper than "
              + MAX_DEPTH
              + " (a linked structure?): its size cannot be told within the walk's bound",
          null);
    }
    f.chargedAfterSelf = charged;
    // Its share of the walk: what the parent has left but a few visits kept for each sibling still
    // to come, so that every part of a large value is sampled, not only the first one walked; a
    // value the bound can walk whole is walked whole.
    f.budget =
        parent == null
            ? MAX_VISITS
            : Math.max(MIN_SHARE, parent.budget - parent.left() * SIBLING_RESERVE);
    stack.add(f);
    return PUSHED;
  }

  private Object leaf(Object value, Kind k, Priced price, ValuePricer custom)
      throws RetentionException {
    add(price);
    if (price.estimated()) {
      extrapolated = Saturating.add(extrapolated, price.extrapolatedBytes());
    }
    if (!price.materialize()) {
      return value;
    }
    materialized = true;
    if (!copy) {
      return value;
    }
    Object kept = pricer.materialize(value, k, price, custom);
    seen.put(value, kept);
    return kept;
  }

  /** Returns what a JDK collection keeps besides its elements: its backing array and nodes. */
  private long structure(Object container, Kind k, int size) {
    long bytes = 0;
    if (k.backing != null) {
      try {
        Object backing = (Object) k.backing.invokeExact(container);
        if (backing != null) {
          bytes = layout.references(Array.getLength(backing));
        }
      } catch (Throwable t) {
        bytes = 0;
      }
    }
    if (k.nodeReferences > 0 && size > 0) {
      long node =
          layout.align(
              layout.arrayHeader - 4 + 4L * k.nodeInts + layout.referenceBytes * k.nodeReferences);
      bytes = Saturating.add(bytes, Saturating.mul(node, size));
    }
    return bytes;
  }

  /**
   * Charges what the walk did not reach under {@code f}: the elements left times the mean price of
   * those walked there (or of every element walked, when none was walked there).
   */
  private void extrapolate(Frame f) {
    long left = f.remaining();
    if (left <= 0) {
      return;
    }
    long walked = f.examined;
    long childCharge = charged - f.chargedAfterSelf;
    double mean =
        walked > 0
            ? (double) childCharge / walked
            : walkedChildren > 0 ? (double) charged / walkedChildren : 0;
    double guess = mean * left;
    long bytes = guess >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) guess;
    extrapolated = Saturating.add(extrapolated, bytes);
    add(f.tier, bytes);
  }

  private void add(Priced p) {
    logical = Saturating.add(logical, p.logicalBytes());
    storage = Saturating.add(storage, p.storageBytes());
    charged = Saturating.add(charged, p.chargedBytes());
    int t = p.tier().ordinal();
    chargedByTier[t] = Saturating.add(chargedByTier[t], p.chargedBytes());
    if (!stack.isEmpty()) {
      Frame top = stack.get(stack.size() - 1);
      if (p.chargedBytes() > top.largest) {
        top.largest = p.chargedBytes();
        top.tier = p.tier();
      }
    }
  }

  private void add(Tier tier, long bytes) {
    add(Priced.owned(tier, "", bytes));
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

  // ------------------------------------------------------------------------------ frames

  /** A container being walked: its children one at a time, then what to keep. */
  private abstract class Frame {
    final Object container;
    long chargedAfterSelf;
    long examined;
    long budget;
    long spent;
    long largest;
    Tier tier = Tier.HEAP;

    Frame(Object container) {
      this.container = container;
    }

    /** Returns the next child (null for a null slot), or {@link #PUSHED} when there is none. */
    abstract Object next();

    /**
     * Returns how many children are left unexamined; throws {@link PricingException} when more are
     * left than the container's size says.
     */
    abstract long remaining();

    /** Returns about how many children are left, for splitting the walk; never throws. */
    long left() {
      try {
        return Math.max(0, remaining());
      } catch (RuntimeException e) {
        return 0;
      }
    }

    /** Returns whether the children may be copied (this container can be rebuilt). */
    boolean copiesChildren() {
      return false;
    }

    /** Takes the kept value of the child just examined. */
    void childDone(Object child, Object kept) {
      examined++;
    }

    /** Returns what to keep of the container. */
    Object result() {
      return container;
    }
  }

  private final class ArrayFrame extends Frame {
    final Object[] array;
    final boolean mayCopy;
    Object[] kept;
    int index;

    ArrayFrame(Object[] array, boolean mayCopy) {
      super(array);
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
      if (keptChild != child && copy) {
        if (kept == null) {
          kept = array.clone();
        }
        kept[index - 1] = keptChild;
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? array : kept;
      seen.put(array, out);
      return out;
    }
  }

  /** A {@link java.util.RandomAccess} list, read by index: no iterator is made. */
  private final class ListFrame extends Frame {
    final List<?> list;
    final boolean rebuild;
    final int size;
    ArrayList<Object> kept;
    int index;

    ListFrame(List<?> list, boolean mayCopy) {
      super(list);
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
      if (keptChild != child && copy && rebuild) {
        if (kept == null) {
          kept = new ArrayList<>(list);
        }
        kept.set(index - 1, keptChild);
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? list : kept;
      seen.put(list, out);
      return out;
    }
  }

  /** Any other collection, iterated: its iterator is drawn at most as often as the walk visits. */
  private final class IteratorFrame extends Frame {
    final Collection<?> collection;
    Iterator<?> it;
    long drawn;

    IteratorFrame(Collection<?> collection) {
      super(collection);
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
                + MAX_VISITS,
            null);
      }
      return left;
    }
  }

  /** A map's keys and values, entry by entry; HashMaps and LinkedHashMaps can be rebuilt. */
  private final class MapFrame extends Frame {
    final Map<?, ?> map;
    final boolean rebuild;
    Iterator<? extends Map.Entry<?, ?>> it;
    Map.Entry<?, ?> entry;
    boolean valueNext;
    long drawn;
    Map<Object, Object> kept;

    MapFrame(Map<?, ?> map, boolean mayCopy) {
      super(map);
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
                + MAX_VISITS,
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
      if (keptChild != child && copy && rebuild && !valueNext) {
        if (kept == null) {
          kept = map.getClass() == HashMap.class ? new HashMap<>(map) : new LinkedHashMap<>(map);
        }
        kept.put(entry.getKey(), keptChild);
      }
    }

    @Override
    Object result() {
      Object out = kept == null ? map : kept;
      seen.put(map, out);
      return out;
    }
  }

  /** An application object's reference fields. */
  private final class FieldsFrame extends Frame {
    final Field[] fields;
    int index;

    FieldsFrame(Object value, Field[] fields) {
      super(value);
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
   * A value of parts: a DJL Batch (data, labels; kept as it is), an ND4J DataSet or MultiDataSet
   * (features, labels and their masks; rebuilt as a new one of its class around the copies when a
   * part was materialized).
   */
  private final class PartsFrame extends Frame {
    final Kind kind;
    final boolean rebuild;
    final Object[] parts;
    boolean replaced;
    int index;

    PartsFrame(Object value, Kind kind, boolean mayCopy) {
      super(value);
      this.kind = kind;
      this.rebuild = mayCopy && kind.rebuild != null;
      this.parts = new Object[kind.parts.length];
    }

    @Override
    Object next() {
      if (index >= parts.length) {
        return PUSHED;
      }
      try {
        Object part = (Object) kind.parts[index].invokeExact(container);
        parts[index++] = part;
        return part;
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(kind.typeName + " could not be read: " + t, t);
      }
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
      if (keptChild != child && copy && rebuild) {
        parts[index - 1] = keptChild;
        replaced = true;
      }
    }

    @Override
    Object result() {
      Object out = container;
      if (replaced) {
        try {
          out = (Object) kind.rebuild.invokeExact(parts);
        } catch (RuntimeException | Error e) {
          throw e;
        } catch (Throwable t) {
          throw new IllegalStateException(kind.typeName + " could not be rebuilt: " + t, t);
        }
      }
      seen.put(container, out);
      return out;
    }
  }

  /** A CompletableFuture: its value, once it is complete (a pending one holds nothing yet). */
  private final class FutureFrame extends Frame {
    boolean done;

    FutureFrame(CompletableFuture<?> future) {
      super(future);
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
