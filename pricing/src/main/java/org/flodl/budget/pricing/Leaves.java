package org.flodl.budget.pricing;

import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;

/** The prices of the JDK's leaves the pricer reads by their internals: buffers and strings. */
final class Leaves {
  private final RetentionPricer pricer;
  private final Layout layout;
  private final ShallowSizer shallow;
  private final AtomicBoolean toldPartial = new AtomicBoolean();

  Leaves(RetentionPricer pricer, Layout layout, ShallowSizer shallow) {
    this.pricer = pricer;
    this.layout = layout;
    this.shallow = shallow;
  }

  /** Returns the price of an array, buffer or string; {@code mayCopy} false keeps a view. */
  Priced price(Object value, Kind k, boolean mayCopy) {
    switch (k.shape) {
      case PRIMITIVE_ARRAY:
        {
          // The payload is what the value addresses; the allocation, header included, what it pins;
          // its charge, what it takes of this heap (a humongous array takes whole G1 regions), so
          // that a value holding one is charged that too.
          long length = Array.getLength(value);
          long allocation = layout.array(length, k.elementBytes);
          return new Priced(
              Tier.HEAP,
              k.typeName,
              length * k.elementBytes,
              allocation,
              HeapFootprint.ofThisHeap(value, allocation),
              false);
        }
      case STRING:
        return string((String) value, k);
      case BUFFER:
        return buffer((Buffer) value, k, mayCopy);
      default:
        return pricer.priceShallow(value, k);
    }
  }

  Priced buffer(Buffer b, Kind k, boolean mayCopy) {
    long logical = (long) b.capacity() * k.elementBytes;
    long storage;
    Tier tier;
    if (!b.isDirect()) {
      tier = Tier.HEAP;
      storage = heapStorage(b, k);
      if (storage < 0) {
        tellPartial();
        storage = logical;
      }
    } else {
      Priced made = madeFromSegment(b, k, logical);
      if (made != null) {
        return made;
      }
      Object owner = pricer.jdk().directOwner(b);
      // A slice or typed view of a mapping points at the mapped root, which carries the file.
      if (pricer.jdk().fileMapped(owner != null ? owner : b)) {
        return new Priced(Tier.MAPPED, k.typeName, logical, logical, logical, false);
      }
      tier = Tier.DIRECT;
      if (owner == null) {
        tellPartial();
        storage = logical;
      } else if (owner == b) {
        storage = logical;
      } else {
        Kind ownerKind = pricer.kind(owner.getClass());
        storage = (long) ((Buffer) owner).capacity() * ownerKind.elementBytes;
      }
    }
    storage = Math.max(storage, logical);
    if (!mayCopy) {
      return new Priced(tier, k.typeName, logical, storage, storage, false);
    }
    return new Priced(
        tier,
        k.typeName,
        logical,
        storage,
        BudgetPolicy.retainedCost(logical, storage),
        BudgetPolicy.shouldMaterialize(logical, storage));
  }

  /**
   * Returns the price of a direct buffer made from a memory segment, which is its segment's (a
   * library's pricer prices segments: their tier is where the JDK counts that memory), or null
   * where {@code b} was not made from one, or segments are not priced.
   */
  private Priced madeFromSegment(Buffer b, Kind k, long logical) {
    Object segment = pricer.jdk().segmentOf(b);
    if (segment == null || pricer.kind(segment.getClass()).shape != Kind.Shape.LIBRARY) {
      return null;
    }
    Priced s = pricer.estimate(segment);
    return new Priced(
        s.tier(),
        k.typeName,
        logical,
        Math.max(logical, s.storageBytes()),
        s.chargedBytes(),
        false,
        s.estimated(),
        s.extrapolatedBytes());
  }

  /** Returns the bytes of a heap buffer's backing array, or -1 when it cannot be seen. */
  private long heapStorage(Buffer b, Kind k) {
    if (b.hasArray()) {
      return (long) Array.getLength(b.array()) * k.elementBytes;
    }
    try {
      if (k.hiddenArray != null) {
        Object array = (Object) k.hiddenArray.invokeExact((Object) b);
        if (array != null) {
          return (long) Array.getLength(array) * k.elementBytes;
        }
      }
      if (k.viewedBytes != null) {
        Object bytes = (Object) k.viewedBytes.invokeExact((Object) b);
        if (bytes instanceof ByteBuffer) {
          return heapStorage((ByteBuffer) bytes, pricer.kind(bytes.getClass()));
        }
      }
    } catch (Throwable t) {
      return -1;
    }
    if ("java.nio.StringCharBuffer".equals(k.typeName)) {
      return (long) b.capacity() * k.elementBytes; // wraps a CharSequence, holds no array
    }
    return -1;
  }

  /** A String pins itself and its backing array (LATIN1 bytes or UTF16 pairs). */
  Priced string(String s, Kind k) {
    long payload = -1;
    if (k.backing != null) {
      try {
        Object value = (Object) k.backing.invokeExact((Object) s);
        if (value instanceof byte[] b) {
          payload = b.length;
        }
      } catch (Throwable t) {
        payload = -1;
      }
    }
    if (payload < 0) {
      payload = 2L * s.length(); // the coder unseen: as if UTF16, the most it takes
    }
    long total = Saturating.add(shallow.size(s), layout.array(payload, 1));
    return new Priced(Tier.HEAP, k.typeName, payload, total, total, false);
  }

  private void tellPartial() {
    if (!toldPartial.get() && toldPartial.compareAndSet(false, true)) {
      String line = pricer.jdk().limitation();
      pricer.tell(
          line != null
              ? line
              : "a buffer's backing storage could not be seen; charged its capacity");
    }
  }
}
