package org.flodl.budget.agent.netty;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.util.IdentityHashMap;
import org.flodl.budget.agent.library.Shallow;
import org.flodl.budget.agent.library.Shared;
import org.flodl.budget.agent.library.TypeValuePricer;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.Releases;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.TypePricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * Netty's {@code ByteBuf}s priced by what really stays reserved: a derived buffer (slice,
 * duplicate, retained or not, leak-aware or not) is followed through {@code unwrap()} to the buffer
 * that owns the memory, a composite is each component's owner, each owner charged once: {@code
 * max(capacity(), writerIndex() + maxFastWritableBytes())} (a pooled buffer's whole slot), on the
 * direct tier where it {@code isDirect()}, else the heap. Past the seed's slack (a slot over twice
 * the capacity) a derived buffer is copied from its own allocator ({@link NettyCopies}) and charged
 * the copy; the original, the reference the application made for the cache, is then handed back as
 * a declined one is (below). An allocator a walk reaches is the job's, charged nothing.
 *
 * <p>A declined buffer's reference is released once the application no longer reaches it: a
 * leak-aware wrapper (any buffer under {@code ResourceLeakDetector} at PARANOID, a sampled one
 * below) releases what it wraps and closes its leak record, as its own {@code release()} would; a
 * bare derived buffer releases the reference it holds on its parent. A bare buffer that owns its
 * memory (not derived, not wrapped) cannot be released without reaching it; nor can a leak-aware
 * composite (its record tracks the wrapper itself): said once, left to the application.
 */
final class NettyPricing implements TypePricer {
  static final String BYTE_BUF = "io.netty.buffer.ByteBuf";
  static final String COMPOSITE = "io.netty.buffer.CompositeByteBuf";
  static final String LEAK_AWARE = "io.netty.buffer.SimpleLeakAwareByteBuf";
  static final String LEAK_AWARE_COMPOSITE = "io.netty.buffer.SimpleLeakAwareCompositeByteBuf";
  static final String POOLED_DERIVED = "io.netty.buffer.AbstractPooledDerivedByteBuf";
  static final String ALLOCATOR = "io.netty.buffer.ByteBufAllocator";
  static final String TRACKER = "io.netty.util.ResourceLeakTracker";

  private static final int MAX_UNWRAPS = 64;

  /**
   * Per owner class, the tier its direct memory is on (null until learned; see directTier), made at
   * the first direct buffer priced.
   */
  private static final class DirectTiers {
    static final ClassValue<Tier[]> OF =
        new ClassValue<>() {
          @Override
          protected Tier[] computeValue(Class<?> c) {
            return new Tier[1];
          }
        };
  }

  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);
  private static final MethodType INT_GETTER = MethodType.methodType(int.class, Object.class);

  @Override
  public ValuePricer pricerOf(Class<?> c) {
    Class<?> buf = Types.supertypeNamed(c, BYTE_BUF);
    if (buf != null) {
      try {
        return new Bufs(buf, c);
      } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
        return Shallow.PRICER;
      }
    }
    return Types.supertypeNamed(c, ALLOCATOR) != null ? Shared.PRICER : null;
  }

  /** The buffers of one class: its handles, found on the application's Netty. */
  private static final class Bufs extends TypeValuePricer {
    private final MethodHandle unwrap;
    private final MethodHandle capacity;
    private final MethodHandle writerIndex;
    private final MethodHandle maxFastWritable; // null before Netty 4.1.42
    private final MethodHandle direct;
    private final MethodHandle nioBuffer;
    private final MethodHandle release;
    private final Class<?> composite;
    private final MethodHandle components;
    private final MethodHandle component;

    /** Leak-aware wrappers: the wrapped buffer's tracked object and record, else null. */
    private final Field tracked;

    private final Field leak;
    private final MethodHandle closeLeak;

    /** A bare pooled derived buffer: the parent it holds a reference on, else null. */
    private final Field parent;

    /** A leak-aware composite: its record closes only through the wrapper's own release. */
    private final boolean leakAwareComposite;

    private final NettyCopies copies; // null: this Netty's buffers are never copied

    Bufs(Class<?> buf, Class<?> c) throws ReflectiveOperationException {
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      ClassLoader loader = buf.getClassLoader();
      unwrap = l.unreflect(buf.getMethod("unwrap")).asType(OBJECT_GETTER);
      capacity = l.unreflect(buf.getMethod("capacity")).asType(INT_GETTER);
      writerIndex = l.unreflect(buf.getMethod("writerIndex")).asType(INT_GETTER);
      MethodHandle fast;
      try {
        fast = l.unreflect(buf.getMethod("maxFastWritableBytes")).asType(INT_GETTER);
      } catch (NoSuchMethodException e) {
        fast = null;
      }
      maxFastWritable = fast;
      direct =
          l.unreflect(buf.getMethod("isDirect"))
              .asType(MethodType.methodType(boolean.class, Object.class));
      nioBuffer =
          l.unreflect(buf.getMethod("nioBuffer", int.class, int.class))
              .asType(MethodType.methodType(Object.class, Object.class, int.class, int.class));
      release =
          l.unreflect(buf.getMethod("release"))
              .asType(MethodType.methodType(boolean.class, Object.class));
      composite = Class.forName(COMPOSITE, false, loader);
      components = l.unreflect(composite.getMethod("numComponents")).asType(INT_GETTER);
      component =
          l.unreflect(composite.getMethod("internalComponent", int.class))
              .asType(MethodType.methodType(Object.class, Object.class, int.class));
      Class<?> leakAware = Types.supertypeNamed(c, LEAK_AWARE);
      if (leakAware != null && !composite.isAssignableFrom(c)) {
        tracked = accessible(leakAware.getDeclaredField("trackedByteBuf"));
        leak = accessible(leakAware.getDeclaredField("leak"));
        Class<?> tracker = Class.forName(TRACKER, false, loader);
        closeLeak =
            l.unreflect(tracker.getMethod("close", Object.class))
                .asType(MethodType.methodType(boolean.class, Object.class, Object.class));
      } else {
        tracked = null;
        leak = null;
        closeLeak = null;
      }
      Class<?> pooledDerived = Types.supertypeNamed(c, POOLED_DERIVED);
      parent = pooledDerived == null ? null : accessible(pooledDerived.getDeclaredField("parent"));
      leakAwareComposite = Types.supertypeNamed(c, LEAK_AWARE_COMPOSITE) != null;
      copies = NettyCopies.of(buf);
    }

    private static Field accessible(Field f) {
      f.setAccessible(true);
      return f;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      try {
        IdentityHashMap<Object, Object> owners = new IdentityHashMap<>();
        long[] sums = new long[Tier.values().length];
        add(value, owners, sums, 0, pricer);
        long logical = (int) capacity.invokeExact(value);
        long total = 0;
        Tier tier = Tier.HEAP;
        for (Tier t : Tier.values()) {
          total += sums[t.ordinal()];
          if (sums[t.ordinal()] > sums[tier.ordinal()]) {
            tier = t;
          }
        }
        long storage = Math.max(total, logical);
        String type = value.getClass().getTypeName();
        if (BudgetPolicy.shouldMaterialize(logical, storage) && copyable(value)) {
          return new Priced(tier, type, logical, storage, NettyCopies.copyBytes(logical), true);
        }
        return new Priced(tier, type, logical, storage, storage, false);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a ByteBuf could not be priced: " + t, t);
      }
    }

    /**
     * Returns whether {@code value} can be copied: a derived buffer, which holds a reference the
     * pricer can hand back once the application lets go of it ({@link #releaseWhenUnreachable}),
     * not a composite.
     */
    private boolean copyable(Object value) throws Throwable {
      return copies != null
          && !leakAwareComposite
          && !composite.isInstance(value)
          && (leak != null || parent != null || (Object) unwrap.invokeExact(value) != null);
    }

    @Override
    public Object materialize(Object value, Priced price) {
      try {
        return copies.copy(
            value, (int) capacity.invokeExact(value), (boolean) direct.invokeExact(value));
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a ByteBuf could not be copied: " + t, t);
      }
    }

    /** Adds what {@code b} reserves, by tier: its owner's slot, or each component's. */
    private void add(
        Object b,
        IdentityHashMap<Object, Object> owners,
        long[] sums,
        int depth,
        RetentionPricer pricer)
        throws Throwable {
      Object owner = b;
      for (int i = 0; i < MAX_UNWRAPS; i++) {
        Object u = (Object) unwrap.invokeExact(owner);
        if (u == null) {
          break;
        }
        owner = u;
      }
      if (owners.put(owner, owner) != null) {
        return; // each owner charged once
      }
      if (composite.isInstance(owner) && depth < MAX_UNWRAPS) {
        int n = (int) components.invokeExact(owner);
        for (int i = 0; i < n; i++) {
          Object part = (Object) component.invokeExact(owner, i);
          if (part != null) {
            add(part, owners, sums, depth + 1, pricer);
          }
        }
        return;
      }
      long cap = (int) capacity.invokeExact(owner);
      long slot =
          maxFastWritable == null
              ? cap
              : (long) (int) writerIndex.invokeExact(owner)
                  + (int) maxFastWritable.invokeExact(owner);
      Tier tier = (boolean) direct.invokeExact(owner) ? directTier(owner, pricer) : Tier.HEAP;
      sums[tier.ordinal()] += Math.max(cap, slot);
    }

    /**
     * Returns the tier a direct owner's memory is on, learned once per owner class from its NIO
     * buffer's price: direct, where the JDK counts it; native where Netty made it from a memory
     * segment of a shared arena (Netty 4.2 on JDK 25, its {@code CleanerJava25}), which no JDK
     * counter sees.
     */
    private Tier directTier(Object owner, RetentionPricer pricer) {
      Tier[] memo = DirectTiers.OF.get(owner.getClass());
      Tier t = memo[0];
      if (t == null) {
        t = Tier.DIRECT;
        try {
          Object nio = (Object) nioBuffer.invokeExact(owner, 0, 0);
          if (nio != null) {
            t = pricer.estimate(nio).tier();
          }
        } catch (Throwable e) {
          t = Tier.DIRECT; // not seen into: where Netty's direct memory is on most JDKs
        }
        memo[0] = t;
      }
      return t;
    }

    @Override
    public boolean releaseWhenUnreachable(Object value, Releases releases) {
      if (leakAwareComposite) {
        throw new UnsupportedOperationException(
            value.getClass().getName()
                + " is a leak-aware composite: its leak record closes only through its own"
                + " release, which needs the buffer itself");
      }
      try {
        if (leak != null) {
          Object record = leak.get(value);
          Object inner = (Object) unwrap.invokeExact(value);
          if (record == null || inner == null) {
            return false;
          }
          releases.whenUnreachable(
              value, new Release(release, inner, closeLeak, record, tracked.get(value)));
          return true;
        }
        Object held = parent != null ? parent.get(value) : (Object) unwrap.invokeExact(value);
        if (held == null && (int) capacity.invokeExact(value) == 0) {
          return false; // an empty buffer holds nothing to give back
        }
        if (held == null) {
          throw new UnsupportedOperationException(
              value.getClass().getName()
                  + " owns its memory: its release needs the buffer itself (cache retained"
                  + " slices, or run with ResourceLeakDetector at PARANOID)");
        }
        releases.whenUnreachable(value, new Release(release, held, null, null, null));
        return true;
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a ByteBuf could not be read: " + t, t);
      }
    }
  }

  /**
   * Releases the reference a declined buffer held, and closes its leak record where the release
   * freed it (what a leak-aware buffer's own {@code release()} does); holds nothing of the buffer.
   */
  private static final class Release implements Runnable {
    private final MethodHandle release;
    private final Object held;
    private final MethodHandle closeLeak;
    private final Object record;
    private final Object tracked;

    Release(
        MethodHandle release, Object held, MethodHandle closeLeak, Object record, Object tracked) {
      this.release = release;
      this.held = held;
      this.closeLeak = closeLeak;
      this.record = record;
      this.tracked = tracked;
    }

    @Override
    public void run() {
      try {
        boolean freed = (boolean) release.invokeExact(held);
        if (freed && record != null) {
          boolean closed = (boolean) closeLeak.invokeExact(record, tracked);
        }
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }
  }
}
