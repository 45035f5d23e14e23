package org.flodl.budget.pricing;

import java.nio.Buffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pricers the built-in law defers to: the applications' {@link ValuePricer}s, asked value by
 * value, and the libraries' (through their kinds); each one's failure said once, its value then
 * charged its shallow size.
 */
final class Custom {
  private final RetentionPricer pricer;
  private final List<ValuePricer> pricers;
  private final AtomicBoolean toldPricer = new AtomicBoolean();

  Custom(RetentionPricer pricer, List<ValuePricer> pricers) {
    this.pricer = pricer;
    this.pricers = pricers;
  }

  /** Returns {@code p}'s parts of {@code value}, or null (also when it throws). */
  Object[] parts(ValuePricer p, Object value) {
    try {
      return p.parts(value);
    } catch (RuntimeException | LinkageError e) {
      tellFailed(p, e);
      return null;
    }
  }

  /** Returns the first application pricer that supports {@code value}, or null. */
  ValuePricer supporting(Object value) {
    for (int i = 0; i < pricers.size(); i++) {
      ValuePricer p = pricers.get(i);
      try {
        if (p.supports(value)) {
          return p;
        }
      } catch (RuntimeException | LinkageError e) {
        tellFailed(p, e);
      }
    }
    return null;
  }

  /** Returns {@code pricer}'s price, charged at least what it addresses; shallow if it throws. */
  Priced price(ValuePricer custom, Object value, Kind k, boolean mayCopy) {
    Priced p;
    try {
      p = custom.price(value, pricer);
    } catch (RuntimeException | LinkageError e) {
      tellFailed(custom, e);
      return pricer.priceShallow(value, k);
    }
    if (p == null) {
      return pricer.priceShallow(value, k);
    }
    boolean materialize = p.materialize() && mayCopy;
    long charged = materialize || !p.materialize() ? p.chargedBytes() : p.storageBytes();
    charged = Math.max(charged, p.logicalBytes());
    if (charged == p.chargedBytes() && materialize == p.materialize()) {
      return p;
    }
    return new Priced(
        p.tier(), p.valueType(), p.logicalBytes(), p.storageBytes(), charged, materialize);
  }

  /** Returns the copy to retain instead of {@code value}; throws when it cannot be made. */
  Object materialize(Object value, Kind k, Priced price, ValuePricer by) throws RetentionException {
    try {
      Object copy =
          by != null
              ? by.materialize(value, price)
              : BufferCopies.copy((Buffer) value, k.bufferType);
      if (copy == null) {
        throw new IllegalStateException(by + " returned no copy");
      }
      return copy;
    } catch (OutOfMemoryError | RuntimeException e) {
      throw new RetentionException(
          "could not materialize a "
              + price.logicalBytes()
              + "-byte view of "
              + price.storageBytes()
              + " bytes ("
              + k.typeName
              + "): "
              + e,
          e);
    }
  }

  private void tellFailed(ValuePricer p, Throwable e) {
    if (!toldPricer.get() && toldPricer.compareAndSet(false, true)) {
      pricer.tell(
          "ValuePricer "
              + p.getClass().getName()
              + " failed, values it could not price are charged their shallow size: "
              + e);
    }
  }
}
