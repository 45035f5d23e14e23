package org.flodl.budget.agent.arrow;

import java.lang.invoke.MethodHandle;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;
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
 * Arrow's values priced by the allocations they pin ({@link ArrowApi}): an {@code ArrowBuf}, a
 * value vector (its buffers) and a {@code VectorSchemaRoot} (its vectors' buffers) are charged each
 * allocation they reach once, whole (a 1 KiB slice of a 16 MiB row group pins the 16 MiB), on the
 * tier its allocation manager draws on: Netty's, direct; Unsafe's (and any other), native. Past the
 * seed's slack (allocations over twice what the buffers address) the value is copied from its own
 * allocator ({@link ArrowCopies}) and charged the copy; the original, the reference the application
 * made for the cache, is then the pricer's to release once the application no longer reaches it, as
 * a declined value's references are; the application's release of what the cache evicts reaches the
 * copy. An allocator, a ledger or an allocation manager a walk reaches is the job's, charged
 * nothing. The root allocators of the native allocations priced are remembered (weakly) and bound
 * the native tier by their headroom.
 */
final class ArrowPricing implements TypePricer {
  private static final int MAX_ROOTS = 16;

  private volatile ArrowApi last; // the API of the last ArrowBuf class seen
  private final List<WeakReference<Object>> roots = new ArrayList<>(); // guarded by itself
  private volatile Object lastRoot;

  @Override
  public ValuePricer pricerOf(Class<?> c) {
    // A class that cannot be looked at (its own linkage fails) throws from here: not Arrow's, to
    // the pricer, which prices it by the generic law.
    Class<?> buf = Types.supertypeNamed(c, ArrowApi.BUF);
    Class<?> vector = buf != null ? null : Types.supertypeNamed(c, ArrowApi.VECTOR);
    Class<?> root = buf != null || vector != null ? null : Types.supertypeNamed(c, ArrowApi.ROOT);
    try {
      if (buf != null) {
        return new Pricer(api(buf), null, null, ArrowCopies.of(buf, null));
      }
      if (vector != null) {
        Class<?> b = bufOf(vector);
        return new Pricer(api(b), ArrowApi.buffers(vector), null, ArrowCopies.of(b, vector));
      }
      if (root != null) {
        Class<?> valueVector = Class.forName(ArrowApi.VECTOR, false, root.getClassLoader());
        Class<?> b = bufOf(root);
        return new Pricer(
            api(b),
            ArrowApi.buffers(valueVector),
            ArrowApi.fieldVectors(root),
            ArrowCopies.of(b, root));
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return Shallow.PRICER; // Arrow's, but not the API this unit knows: never walked into
    }
    for (String shared :
        new String[] {
          ArrowApi.ALLOCATOR, ArrowApi.REFERENCE_MANAGER, ArrowApi.ALLOCATION_MANAGER
        }) {
      if (Types.supertypeNamed(c, shared) != null) {
        return Shared.PRICER;
      }
    }
    return null;
  }

  /**
   * Returns the headroom of the root allocators of the native allocations priced (the bytes Arrow
   * lets them allocate before it throws), summed, or -1 where none has been seen.
   */
  long nativeHeadroom() {
    ArrowApi api = last;
    if (api == null) {
      return -1;
    }
    long sum = -1;
    synchronized (roots) {
      for (int i = roots.size() - 1; i >= 0; i--) {
        Object root = roots.get(i).get();
        if (root == null) {
          roots.remove(i);
          continue;
        }
        try {
          long h = (long) api.headroom.invokeExact(root);
          sum = Math.max(sum, 0) + Math.max(h, 0);
        } catch (Throwable t) {
          // an allocator that cannot tell bounds nothing
        }
      }
    }
    return sum;
  }

  private ArrowApi api(Class<?> buf) throws ReflectiveOperationException {
    ArrowApi a = last;
    if (a == null || a.buf != buf) {
      a = ArrowApi.of(buf);
      last = a;
    }
    return a;
  }

  private static Class<?> bufOf(Class<?> c) throws ClassNotFoundException {
    return Class.forName(ArrowApi.BUF, false, c.getClassLoader());
  }

  private void remember(Object root) {
    if (root == null || root == lastRoot) {
      return;
    }
    synchronized (roots) {
      for (WeakReference<Object> r : roots) {
        if (r.get() == root) {
          lastRoot = root;
          return;
        }
      }
      if (roots.size() < MAX_ROOTS) {
        roots.add(new WeakReference<>(root));
        Library.boundChanged(); // its headroom bounds the native tier from the next decision
      }
      lastRoot = root;
    }
  }

  /**
   * Buffers ({@code buffers} and {@code vectors} null), a vector ({@code vectors} null) or a root.
   */
  private final class Pricer extends TypeValuePricer {
    private final ArrowApi api;
    private final MethodHandle buffers;
    private final MethodHandle vectors;
    private final ArrowCopies copies; // null: this Arrow's values are never copied

    Pricer(ArrowApi api, MethodHandle buffers, MethodHandle vectors, ArrowCopies copies) {
      this.api = api;
      this.buffers = buffers;
      this.vectors = vectors;
      this.copies = copies;
    }

    @Override
    public Priced price(Object value, RetentionPricer pricer) {
      try {
        IdentityHashMap<Object, Object> seen = new IdentityHashMap<>();
        long[] sums = new long[3]; // logical, native, direct
        for (Object buf : bufs(value)) {
          sums[0] += (long) api.capacity.invokeExact(buf);
          Object manager = (Object) api.referenceManager.invokeExact(buf);
          if (manager == null || manager == api.noOp) {
            continue;
          }
          Object allocation =
              api.ledger.isInstance(manager)
                  ? (Object) api.allocationManager.invokeExact(manager)
                  : manager;
          if (seen.put(allocation, allocation) != null) {
            continue; // each allocation charged once
          }
          long size = (long) api.size.invokeExact(manager);
          if (allocation.getClass().getSimpleName().equals(ArrowApi.NETTY_MANAGER)) {
            sums[2] += size;
          } else {
            sums[1] += size;
            remember((Object) api.root.invokeExact((Object) api.allocator.invokeExact(manager)));
          }
        }
        long storage = Math.max(sums[1] + sums[2], sums[0]);
        Tier tier = sums[2] > sums[1] ? Tier.DIRECT : Tier.NATIVE;
        String type = value.getClass().getTypeName();
        if (copies != null && BudgetPolicy.shouldMaterialize(sums[0], storage)) {
          long copy = copyBytes(value);
          if (copy >= 0) {
            return new Priced(tier, type, sums[0], storage, Math.max(copy, sums[0]), true);
          }
        }
        return new Priced(tier, type, sums[0], storage, storage, false);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("an Arrow value could not be priced: " + t, t);
      }
    }

    @Override
    public boolean releaseWhenUnreachable(Object value, Releases releases) {
      boolean any = false;
      try {
        for (Object buf : bufs(value)) {
          Object manager = (Object) api.referenceManager.invokeExact(buf);
          if (manager != null && manager != api.noOp) {
            releases.whenUnreachable(buf, new Release(api.release, manager));
            any = true;
          }
        }
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("an Arrow value could not be read: " + t, t);
      }
      return any;
    }

    /**
     * Returns what a copy of {@code value} takes from its allocators, or -1 where it is not copied
     * (a vector with children; an allocator without the headroom, said once).
     */
    private long copyBytes(Object value) throws Throwable {
      // a lone buffer (null), a vector's own, or a root's field vectors
      List<?> vs =
          buffers == null
              ? null
              : vectors == null ? List.of(value) : (List<?>) (Object) vectors.invokeExact(value);
      if (!copies.copyable(vs)) {
        return -1;
      }
      long sum = 0;
      if (vs == null) {
        Object allocator =
            (Object) api.allocator.invokeExact((Object) api.referenceManager.invokeExact(value));
        sum = copies.copyBytes(allocator, List.of(value), api);
      } else {
        for (Object v : vs) {
          long bytes = copies.copyBytes(copies.allocatorOf(v), bufsOf(v), api);
          if (bytes < 0) {
            sum = -1;
            break;
          }
          sum += bytes;
        }
      }
      if (sum < 0) {
        Log.warnOnce(
            "arrow-copy-headroom",
            "Arrow: a small view of a large allocation is kept uncopied, charged the allocation"
                + " whole: its allocator has not the headroom for a copy");
      }
      return sum;
    }

    @Override
    public Object materialize(Object value, Priced price) {
      try {
        if (buffers == null) {
          Object manager = (Object) api.referenceManager.invokeExact(value);
          return copies.copyBuffer((Object) api.allocator.invokeExact(manager), value, api);
        }
        if (vectors == null) {
          return copies.copyVector(value, api);
        }
        return copies.copyRoot(value, (List<?>) (Object) vectors.invokeExact(value), api);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException("an Arrow value could not be copied: " + t, t);
      }
    }

    private List<Object> bufsOf(Object vector) throws Throwable {
      List<Object> out = new ArrayList<>();
      addAll(out, (Object[]) buffers.invokeExact(vector));
      return out;
    }

    /** Returns the value's buffers: itself, a vector's, or every vector's of a root. */
    private List<Object> bufs(Object value) throws Throwable {
      List<Object> out = new ArrayList<>();
      if (buffers == null) {
        out.add(value);
      } else if (vectors == null) {
        addAll(out, (Object[]) buffers.invokeExact(value));
      } else {
        for (Object v : (List<?>) (Object) vectors.invokeExact(value)) {
          if (v != null) {
            addAll(out, (Object[]) buffers.invokeExact(v));
          }
        }
      }
      return out;
    }

    private void addAll(List<Object> out, Object[] bufs) {
      for (Object b : bufs) {
        if (b != null) {
          out.add(b);
        }
      }
    }
  }

  /** Releases one reference of one buffer: what closing it would; holds the manager alone. */
  private static final class Release implements Runnable {
    private final MethodHandle release;
    private final Object manager;

    Release(MethodHandle release, Object manager) {
      this.release = release;
      this.manager = manager;
    }

    @Override
    public void run() {
      try {
        boolean unused = (boolean) release.invokeExact(manager);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    }
  }
}
