package org.flodl.budget.pricing;

import java.util.ArrayList;
import java.util.List;

/**
 * The pricer's retain side ({@link RetentionPricer#retain}, {@link RetentionPricer#retainRows}): a
 * value made ready for the cache, copied where its price says materialize. A library's copy (an
 * Arrow slice copied from its allocator) replaces an original the application made a reference for
 * and will never release itself, since its cache releases what it evicts, the copy: once the retain
 * succeeds each such original is handed back to its library when the application no longer reaches
 * it, as a declined value is ({@link Cleanup}); when the retain fails after some copies were made,
 * those copies are handed back instead, and the originals stay the application's.
 */
final class Retaining {
  private final RetentionPricer pricer;
  private final Layout layout;
  private final Custom custom;
  private final Cleanup cleanup;

  Retaining(RetentionPricer pricer, Layout layout, Custom custom, Cleanup cleanup) {
    this.pricer = pricer;
    this.layout = layout;
    this.custom = custom;
    this.cleanup = cleanup;
  }

  /** See {@link RetentionPricer#retain(Object, long)}. */
  Retained retain(Object value, long collectThreshold) throws RetentionException {
    Copies copies = new Copies();
    boolean done = false;
    try {
      Kind k = pricer.kind(value);
      Retained r;
      if (RetentionPricer.isLeaf(k)) {
        Priced price = pricer.priceLeaf(value, k, true);
        r =
            price.materialize()
                ? new Retained(copies.copy(value, k, price, null), price, true)
                : new Retained(value, price, false);
      } else {
        ValuePricer by = pricer.pricerOf(value, k);
        if (by != null && pricer.partsBy(by, value) == null) {
          Priced price = pricer.priceBy(by, value, k, true);
          r =
              price.materialize()
                  ? new Retained(copies.copy(value, k, price, by), price, true)
                  : new Retained(value, price, false);
        } else if (by == null && (k.shape == Kind.Shape.OTHER || k.shape == Kind.Shape.SHARED)) {
          r = new Retained(value, pricer.estimate(value), false);
        } else {
          Walk walk = new Walk(pricer, layout, copies, null);
          Object kept = walk.visitTop(value);
          r = new Retained(kept, walk.priced(k.typeName), kept != value);
        }
      }
      done = true;
      return r;
    } catch (RuntimeException e) {
      throw new RetentionException("could not price " + value.getClass().getName() + ": " + e, e);
    } finally {
      copies.handBack(done, collectThreshold);
    }
  }

  /** See {@link RetentionPricer#retainRows}. */
  RetainedRows retainRows(List<?> values) throws RetentionException {
    Copies copies = new Copies();
    boolean done = false;
    try {
      Walk walk = new Walk(pricer, layout, copies, null);
      List<Object> kept = walk.visitRows(values);
      done = true;
      return new RetainedRows(kept, walk.chargedBytes(), walk.materialized());
    } catch (RuntimeException e) {
      throw new RetentionException("could not price the rows: " + e, e);
    } finally {
      copies.handBack(done, 0);
    }
  }

  /** One retain's copies, and the originals a library's copies replace. */
  final class Copies {
    private List<Replaced> replaced; // made at the first library copy

    /** Returns the copy to retain instead of {@code value}; throws when it cannot be made. */
    Object copy(Object value, Kind k, Priced price, ValuePricer by) throws RetentionException {
      Object copy = custom.materialize(value, k, price, by);
      if (by != null && copy != value) {
        if (replaced == null) {
          replaced = new ArrayList<>(2);
        }
        replaced.add(new Replaced(value, copy, by, price.storageBytes(), price.chargedBytes()));
      }
      return copy;
    }

    /**
     * Hands back the originals the copies replace ({@code kept}: the retain succeeded), or the
     * copies themselves (it failed: nothing holds them). Buffers the JDK copied need nothing.
     */
    void handBack(boolean kept, long collectThreshold) {
      if (replaced == null) {
        return;
      }
      for (Replaced r : replaced) {
        try {
          if (kept) {
            cleanup.release(r.by, r.original, r.originalBytes, collectThreshold);
          } else {
            cleanup.release(r.by, r.copy, r.copyBytes, collectThreshold);
          }
        } catch (RuntimeException | LinkageError e) {
          pricer.tell(
              "a copied "
                  + r.original.getClass().getName()
                  + "'s "
                  + (kept ? "original" : "copy")
                  + " could not be handed back: "
                  + e);
        }
      }
    }
  }

  /** An original a library's copy replaced: what each holds, and its pricer. */
  private record Replaced(
      Object original, Object copy, ValuePricer by, long originalBytes, long copyBytes) {}
}
