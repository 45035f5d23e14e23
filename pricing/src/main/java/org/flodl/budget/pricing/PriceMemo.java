package org.flodl.budget.pricing;

import java.lang.reflect.Array;

/**
 * One thread's memo of the last JDK type it priced, for {@link RetentionPricer#estimate(Object,
 * PriceMemo)}: the type's kind (no class-value lookup for the next value of that type) and, for a
 * primitive array, the last length and its price. Only a primitive array, a string or a buffer is
 * kept (the boot loader's types), so a memo pins no application's class loader. Not thread-safe:
 * each thread keeps its own.
 */
public final class PriceMemo {
  private RetentionPricer owner;
  private Class<?> type;
  private Kind kind;
  private int length = -1;
  private Priced price;

  /** Returns {@code pricer}'s estimate of {@code value} (not null), through this memo. */
  Priced price(RetentionPricer pricer, Object value) {
    Class<?> c = value.getClass();
    if (owner != pricer || type != c) {
      return keep(pricer, c, pricer.kind(c), value);
    }
    Kind k = kind;
    if (k.shape != Kind.Shape.PRIMITIVE_ARRAY) {
      return pricer.priceLeaf(value, k, true);
    }
    int n = Array.getLength(value);
    return n == length ? price : keepArray(pricer, value, k, n);
  }

  /** Prices {@code value}, of type {@code c} and kind {@code k}, and keeps its type if a leaf. */
  private Priced keep(RetentionPricer pricer, Class<?> c, Kind k, Object value) {
    boolean leaf =
        k.shape == Kind.Shape.PRIMITIVE_ARRAY
            || k.shape == Kind.Shape.STRING
            || k.shape == Kind.Shape.BUFFER;
    if (!leaf) {
      return pricer.estimate(value, k);
    }
    owner = pricer;
    type = c;
    kind = k;
    length = -1;
    price = null;
    return k.shape == Kind.Shape.PRIMITIVE_ARRAY
        ? keepArray(pricer, value, k, Array.getLength(value))
        : pricer.priceLeaf(value, k, true);
  }

  private Priced keepArray(RetentionPricer pricer, Object value, Kind k, int n) {
    Priced p = pricer.priceLeaf(value, k, true);
    length = n;
    price = p;
    return p;
  }
}
