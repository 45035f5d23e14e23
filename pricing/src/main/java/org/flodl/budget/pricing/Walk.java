package org.flodl.budget.pricing;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;

/**
 * One bounded walk over a value the pricer was given (an array of references, a collection, a map's
 * keys and values, an application object's reference fields, the parts a library's pricer names),
 * summing what its parts pin, each object reached once (an identity set, which also stops cycles).
 * The walk keeps its own stack (never the thread's), refuses a value nested deeper than {@value
 * #MAX_DEPTH}, or cut by its bound below more than {@value #CHAIN_LINKS} single links (a linked
 * ring of a million nodes: no bounded walk can tell its size), and stops at {@value #MAX_VISITS}
 * visits (each object, and each slot or element looked at, null or not) or when {@code deadline}
 * passes; what it did not reach is extrapolated, container by container, as the elements left times
 * the mean price of the elements walked there, and the price says {@code estimated}. An iterator is
 * never drawn more times than the bound, and the walk allocates nothing in proportion to the graph
 * beyond what it visits. A value whose own code throws while walked, that changes under the walk,
 * or that has more left than its {@code size()} says, is a {@link PricingException}: the caller
 * declines it.
 *
 * <p>Only containers the walk can rebuild as the same class ({@code Object[]}, {@link ArrayList},
 * {@link HashMap}, {@link LinkedHashMap}, a value whose pricer can rebuild it from its parts) get
 * their views materialized; inside any other container a view is kept and charged its whole
 * storage. In retain mode the walk returns the container to keep: the original, or a rebuilt one
 * holding the copies.
 */
final class Walk {
  /** The most objects and slots one walk looks at. */
  static final int MAX_VISITS = 1 << 16;

  /** The most time one estimate takes, in nanoseconds. */
  static final long MAX_NANOS = 1_000_000L;

  /** The deepest nesting walked: a value nested deeper cannot be priced (a linked ring?). */
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
  private static final Object PUSHED = Frame.PUSHED;

  private final RetentionPricer pricer;
  private final Layout layout;
  final Retaining.Copies copies; // null: an estimate, copying nothing
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
  private Object topValue; // the value visited at the top, its kind looked up only when needed
  private List<Cleanup.Part> libraryParts; // the library values reached, when asked

  /**
   * Returns a walk that copies through {@code copies} (null: an estimate); with {@code clock} null
   * it has no time bound (a retain walk copies what it reaches, bounded by its visits alone).
   */
  Walk(RetentionPricer pricer, Layout layout, Retaining.Copies copies, LongSupplier clock) {
    this.pricer = pricer;
    this.layout = layout;
    this.copies = copies;
    this.clock = clock;
    this.deadline = clock == null ? Long.MAX_VALUE : clock.getAsLong() + MAX_NANOS;
  }

  /** Returns the value to keep for the top-level container {@code value}. */
  Object visitTop(Object value) throws RetentionException {
    topValue = value;
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

  /** Makes the walk add each library value it reaches (a {@link Cleanup.Part}) to {@code into}. */
  void collectLibraryParts(List<Cleanup.Part> into) {
    libraryParts = into;
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
    ValuePricer custom = pricer.pricerOf(value, k);
    Object[] parts = custom == null ? null : pricer.partsBy(custom, value);
    if (custom != null && parts == null) {
      return leaf(value, k, pricer.priceBy(custom, value, k, mayCopy), custom);
    }
    Frame f;
    switch (parts != null ? Kind.Shape.LIBRARY : k.shape) {
      case OBJECT_ARRAY:
        add(Tier.HEAP, layout.references(((Object[]) value).length));
        f = new Frames.ArrayFrame(this, (Object[]) value, mayCopy);
        break;
      case COLLECTION:
        add(
            Tier.HEAP,
            pricer.shallowSize(value) + structure(value, k, ((Collection<?>) value).size()));
        f =
            k.randomAccess
                ? new Frames.ListFrame(this, (List<?>) value, mayCopy)
                : new Frames.IteratorFrame(this, (Collection<?>) value);
        break;
      case MAP:
        add(Tier.HEAP, pricer.shallowSize(value) + structure(value, k, ((Map<?, ?>) value).size()));
        f = new Frames.MapFrame(this, (Map<?, ?>) value, mayCopy);
        break;
      case FIELDS:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new Frames.FieldsFrame(this, value, k.fields);
        break;
      case LIBRARY:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new Frames.PartsFrame(this, value, k, custom, parts, mayCopy);
        break;
      case FUTURE:
        add(Tier.HEAP, pricer.shallowSize(value));
        f = new Frames.FutureFrame(this, (CompletableFuture<?>) value);
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
    if (custom != null && custom == k.pricer) { // a library's value inside this one
      pricer.kind(topValue).holds(k);
      if (libraryParts != null) {
        libraryParts.add(new Cleanup.Part(value, custom, price.chargedBytes()));
      }
    }
    if (price.estimated()) {
      extrapolated = Saturating.add(extrapolated, price.extrapolatedBytes());
    }
    if (!price.materialize()) {
      return value;
    }
    materialized = true;
    if (copies == null) {
      return value;
    }
    Object kept = copies.copy(value, k, price, custom);
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

  /** Keeps {@code kept} as what to retain of {@code container}, reached again. */
  void keep(Object container, Object kept) {
    seen.put(container, kept);
  }
}
