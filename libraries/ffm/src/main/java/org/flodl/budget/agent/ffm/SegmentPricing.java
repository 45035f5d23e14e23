package org.flodl.budget.agent.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Optional;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.pricing.TypePricer;
import org.flodl.budget.pricing.ValuePricer;

/**
 * The JDK's memory segments ({@code java.lang.foreign.MemorySegment}, JDK 22+) priced by what they
 * keep alive, on the tier where the JDK counts that memory, each allocation once:
 *
 * <ul>
 *   <li>a native segment of an automatic arena: every allocation of its arena (the arena's scope
 *       keeps them all alive while one slice is reachable), on the direct tier, where the JDK
 *       reserves them against {@code MaxDirectMemorySize};
 *   <li>of a confined, shared or global arena: the allocation it slices, on the native tier (no JDK
 *       counter sees it; the agent never closes an arena);
 *   <li>a heap segment ({@code ofArray}, read-only ones too): its whole array, on the heap;
 *   <li>a mapped segment: the whole mapping, on the mapped tier.
 * </ul>
 *
 * <p>The seed's view rule ({@code VIEW_SLACK_FACTOR}): a heap segment, or a native one of an
 * automatic arena, that pins over twice what it addresses (a 1 KiB slice of a 16 MiB row group) is
 * copied ({@link SegmentCopies}: memory the collector frees, as the original's was), the cache
 * handed the copy and charged the copy's bytes on the same tier. A slice of a confined, shared or
 * global arena is not copied: the application closes its arena when it means the memory to go, and
 * a copy would outlive that.
 *
 * <p>The allocations are read inside {@code jdk.internal.foreign} ({@link SegmentInternals}); where
 * that cannot be done, or a segment's memory is none the JDK allocated ({@code
 * ofAddress(a).reinterpret(n)}, memory from {@code malloc} through the linker), the segment is
 * charged its {@code byteSize()} on the native tier (heap, mapped as it says), marked estimated,
 * and that is said once.
 */
final class SegmentPricing implements TypePricer {
  static final String SEGMENT = "java.lang.foreign.MemorySegment";

  /** The most allocations of one arena read for one segment: past it, the rest are not charged. */
  static final int MAX_ALLOCATIONS = 4096;

  private volatile SegmentInternals internals;
  private volatile boolean opened;

  @Override
  public ValuePricer pricerOf(Class<?> c) {
    String n = c.getName();
    if (!n.startsWith("jdk.internal.foreign.")) {
      return null;
    }
    Class<?> segment = Types.supertypeNamed(c, SEGMENT);
    return segment == null ? null : new Segments(PublicApi.of(segment), SegmentCopies.of(segment));
  }

  /** Returns the internals, opened (the pricer's grant) at the first segment priced; or null. */
  private SegmentInternals internals(RetentionPricer pricer) {
    if (!opened) {
      synchronized (this) {
        if (!opened) {
          pricer.limitation(); // the grant: jdk.internal.foreign opened with the rest, where it can
          internals = SegmentInternals.open();
          opened = true;
          if (internals == null) {
            Log.warnOnce(
                "ffm-internals",
                "memory segments are priced by their byteSize(), marked estimated:"
                    + " jdk.internal.foreign cannot be read (the allocations a slice keeps alive are"
                    + " not seen)");
          }
        }
      }
    }
    return internals;
  }

  /** The public API of {@code MemorySegment}, as the JDK's own loader sees it. */
  private record PublicApi(
      MethodHandle byteSize, MethodHandle isNative, MethodHandle isMapped, MethodHandle heapBase) {
    static PublicApi of(Class<?> segment) {
      try {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        MethodType bool = MethodType.methodType(boolean.class, Object.class);
        return new PublicApi(
            l.unreflect(segment.getMethod("byteSize"))
                .asType(MethodType.methodType(long.class, Object.class)),
            l.unreflect(segment.getMethod("isNative")).asType(bool),
            l.unreflect(segment.getMethod("isMapped")).asType(bool),
            l.unreflect(segment.getMethod("heapBase"))
                .asType(MethodType.methodType(Object.class, Object.class)));
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A segment: the allocations it pins are its parts; its public answer where none is seen. */
  private final class Segments implements ValuePricer {
    private final PublicApi api;
    private final SegmentCopies copies; // null: this JDK's segments are never copied

    Segments(PublicApi api, SegmentCopies copies) {
      this.api = api;
      this.copies = copies;
    }

    @Override
    public Object materialize(Object segment, Priced price) {
      try {
        long size = price.logicalBytes();
        if (price.tier() == Tier.HEAP) {
          SegmentInternals in = internals;
          return copies.heap(segment, (Object) in.heapArray.invokeExact(segment), size);
        }
        return copies.automatic(segment, size);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("a memory segment could not be copied: " + t, t);
      }
    }

    @Override
    public boolean supports(Object value) {
      return true;
    }

    @Override
    public Priced price(Object segment, RetentionPricer pricer) {
      SegmentInternals in = internals(pricer);
      Priced seen = null;
      try {
        seen = in == null ? null : seenInto(in, segment, pricer);
      } catch (Throwable t) {
        seen = null; // moved under us, or not the internals this unit knows: the public answer
      }
      return seen != null ? seen : publicAnswer(segment);
    }

    /**
     * Returns what {@code segment} keeps alive, read inside the JDK, or null where that is not
     * seen: a heap segment's whole array, a mapped one's whole mapping, a native one's allocations
     * (every allocation of an automatic arena, else the one it slices).
     */
    private Priced seenInto(SegmentInternals in, Object segment, RetentionPricer pricer)
        throws Throwable {
      long size = (long) api.byteSize().invokeExact(segment);
      String type = segment.getClass().getTypeName();
      if (!(boolean) api.isNative().invokeExact(segment)) {
        Object array = (Object) in.heapArray.invokeExact(segment);
        if (array == null) {
          return null;
        }
        long storage = Math.max(size, pricer.estimate(array).storageBytes());
        long copy = copies == null ? -1 : SegmentCopies.heapCopyBytes(array, size);
        if (copy >= 0 && BudgetPolicy.shouldMaterialize(size, storage)) {
          return new Priced(Tier.HEAP, type, size, storage, copy, true);
        }
        return new Priced(Tier.HEAP, type, size, storage, storage, false);
      }
      if ((boolean) api.isMapped().invokeExact(segment)) {
        Object unmapper = (Object) in.unmapper.invokeExact(segment);
        long mapping = unmapper == null ? -1 : in.mappingSize(unmapper);
        return mapping < 0
            ? null
            : new Priced(Tier.MAPPED, type, size, Math.max(size, mapping), mapping, false);
      }
      Object scope = (Object) in.scope.invokeExact(segment);
      long address = (long) in.address.invokeExact(segment);
      boolean automatic = in.implicitSession.isInstance(scope);
      Object list = (Object) in.resourceList.invokeExact(scope);
      Object c = list == null ? null : (Object) in.first.invokeExact(list);
      long pinned = 0;
      boolean reserved = false;
      boolean contains = false;
      for (int i = 0; c != null && i < MAX_ALLOCATIONS; i++) {
        long[] a = in.allocation(c);
        if (a != null) {
          boolean slices = a[0] <= address && address - a[0] < a[1];
          if (automatic || slices) {
            pinned += a[1];
            reserved |= in.reserved(c);
          }
          contains |= slices;
          if (slices && !automatic) {
            break;
          }
        }
        c = (Object) in.next.invokeExact(c);
      }
      if (!contains) {
        return null; // memory the JDK did not allocate for this session: not seen into
      }
      Tier tier = reserved ? Tier.DIRECT : Tier.NATIVE;
      long storage = Math.max(size, pinned);
      if (automatic && copies != null && BudgetPolicy.shouldMaterialize(size, storage)) {
        return new Priced(
            tier, type, size, storage, SegmentCopies.nativeCopyBytes(size, address), true);
      }
      return new Priced(tier, type, size, storage, pinned, false);
    }

    /** Returns the segment's size on the tier it says, estimated: its memory is not seen. */
    private Priced publicAnswer(Object segment) {
      try {
        long size = (long) api.byteSize().invokeExact(segment);
        Tier tier = Tier.NATIVE;
        long storage = size;
        if (!(boolean) api.isNative().invokeExact(segment)) {
          tier = Tier.HEAP;
          Object base = ((Optional<?>) (Object) api.heapBase().invokeExact(segment)).orElse(null);
          if (base != null) {
            storage = Math.max(size, (long) java.lang.reflect.Array.getLength(base));
          }
        } else if ((boolean) api.isMapped().invokeExact(segment)) {
          tier = Tier.MAPPED;
        }
        Log.warnOnce(
            "ffm-unseen-" + segment.getClass().getName(),
            "a "
                + segment.getClass().getName()
                + " whose memory the JDK did not allocate (or that cannot be seen into) is charged"
                + " its byteSize(), marked estimated");
        return new Priced(
            tier, segment.getClass().getTypeName(), size, storage, storage, false, true, 0);
      } catch (Throwable t) {
        throw new IllegalStateException("a memory segment could not be priced: " + t, t);
      }
    }
  }
}
