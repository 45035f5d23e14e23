package org.flodl.budget.pricing;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Saturating;
import org.flodl.budget.policy.Tier;

/**
 * Retention pricing for JVM values, the seed's {@code retained_cost_estimate} / {@code
 * retain_rows}: a value is charged what it really pins. A primitive array is charged its bytes on
 * the heap; a {@link Buffer} addresses its capacity and pins its whole backing array (heap) or the
 * capacity of the buffer that owns its memory (direct), and past {@link
 * BudgetPolicy#VIEW_SLACK_FACTOR} it is copied into storage of its own and charged what it
 * addresses ({@link BudgetPolicy#retainedCost}); a file mapping is priced by what it addresses and
 * never copied; a DJL NDArray is charged {@code size() × dataType bytes} on {@link Tier#DEVICE} or
 * {@link Tier#NATIVE} (DJL shows no storage size); an ND4J INDArray is charged its whole buffer on
 * {@link Tier#NATIVE}, and a view past the slack, or an array attached to a workspace, is copied (a
 * {@code dup()} outside every workspace) and charged what it addresses; a DataSet or MultiDataSet
 * is its features, labels and masks; a primitive array is charged its whole allocation, header
 * included, a String its backing array too; arrays of references, collections (their backing arrays
 * and nodes), maps (keys and values), an application's objects (through their reference fields),
 * DJL NDLists and Batches are the sum of their parts, each part charged once, walked within a bound
 * and extrapolated past it ({@link Walk}); anything else is priced by an application's {@link
 * ValuePricer} or by its shallow size. {@link #estimate} and {@link #retain} agree on every value
 * the walk reaches whole. Thread-safe; one per agent.
 */
public final class RetentionPricer {
  private static final Priced NULL_PRICE = Priced.owned(Tier.HEAP, "null", 0);

  // An anonymous class, not a lambda: the pricer is made on an application thread at the first
  // admission, and a JVM's first lambda bootstrap costs it milliseconds of start-up.
  private static final Consumer<String> STDERR =
      new Consumer<String>() {
        @Override
        public void accept(String line) {
          System.err.println("flodl-budget: " + line);
        }
      };

  private final Supplier<JdkAccess> jdkSource;
  private volatile JdkAccess jdk; // from jdkSource at its first use: see jdk()
  private final ShallowSizer shallow;
  private final Layout layout;
  private final LongSupplier clock;
  private final List<ValuePricer> pricers;
  private final Consumer<String> notice;
  private final AtomicBoolean toldPartial = new AtomicBoolean();
  private final AtomicBoolean toldPricer = new AtomicBoolean();

  private final ClassValue<Kind> kinds =
      new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
          // An array's kind reads nothing of java.base: no grant for a cache of arrays.
          return type.isArray() ? Kind.array(type) : Kind.of(type, jdk());
        }
      };

  RetentionPricer(
      Instrumentation inst, List<ValuePricer> pricers, JdkAccess jdk, Consumer<String> notice) {
    this(inst, pricers, jdk, notice, NANO_TIME);
  }

  /** Returns a pricer whose walks read {@code clock} (nanoseconds) for their time bound. */
  RetentionPricer(
      Instrumentation inst,
      List<ValuePricer> pricers,
      JdkAccess jdk,
      Consumer<String> notice,
      LongSupplier clock) {
    this(inst, pricers, constant(Objects.requireNonNull(jdk, "jdk")), notice, clock);
  }

  /** Returns a pricer that takes its JDK access from {@code jdkSource} when it first needs it. */
  private RetentionPricer(
      Instrumentation inst,
      List<ValuePricer> pricers,
      Supplier<JdkAccess> jdkSource,
      Consumer<String> notice,
      LongSupplier clock) {
    this.jdkSource = jdkSource;
    this.shallow = new ShallowSizer(inst);
    this.layout = Layout.of(inst);
    this.pricers = List.copyOf(pricers);
    this.notice = Objects.requireNonNull(notice, "notice");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  private static final LongSupplier NANO_TIME =
      new LongSupplier() {
        @Override
        public long getAsLong() {
          return System.nanoTime();
        }
      };

  /**
   * Returns the pricer the agent uses: JDK access granted through {@code inst} when there is one
   * ({@link #grantJdkAccess}), shallow sizes from {@code inst}, the {@link ValuePricer}s {@code
   * spiLoader} finds (the system class loader when null), limitations said once on stderr.
   */
  public static RetentionPricer standard(Instrumentation instOrNull, ClassLoader spiLoader) {
    return standard(instOrNull, spiLoader, STDERR);
  }

  /**
   * Returns {@link #standard(Instrumentation, ClassLoader)} saying limitations to {@code notice}.
   */
  public static RetentionPricer standard(
      Instrumentation instOrNull, ClassLoader spiLoader, Consumer<String> notice) {
    List<ValuePricer> found = new ArrayList<>();
    Iterator<ValuePricer> it = ServiceLoader.load(ValuePricer.class, spiLoader).iterator();
    while (true) {
      try {
        if (!it.hasNext()) {
          break;
        }
        found.add(it.next());
      } catch (ServiceConfigurationError e) {
        notice.accept("a ValuePricer could not be loaded, skipped: " + e.getMessage());
      }
    }
    // The grant and the JDK's handles at the first value that needs them (a buffer, a string, a
    // collection): the grant's redefineModule spins lambdas, milliseconds a cache of arrays saves.
    Supplier<JdkAccess> jdk =
        new Supplier<JdkAccess>() {
          @Override
          public JdkAccess get() {
            return JdkAccess.detect(instOrNull == null ? null : grantJdkAccess(instOrNull));
          }
        };
    return new RetentionPricer(instOrNull, found, jdk, notice, NANO_TIME);
  }

  private static Supplier<JdkAccess> constant(JdkAccess jdk) {
    return new Supplier<JdkAccess>() {
      @Override
      public JdkAccess get() {
        return jdk;
      }
    };
  }

  /** Returns the pricer's JDK access, made at the first call. */
  private JdkAccess jdk() {
    JdkAccess j = jdk;
    if (j == null) {
      synchronized (jdkSource) {
        j = jdk;
        if (j == null) {
          j = jdkSource.get();
          jdk = j;
        }
      }
    }
    return j;
  }

  /**
   * Exports {@code sun.nio.ch} and opens {@code java.nio} (both of {@code java.base}) to this
   * class's module, which is what lets the pricer find a direct view's owner, tell a file mapping
   * and see the backing array of a read-only heap buffer. Returns null, or why it could not. The
   * agent may do the same itself: {@code inst.redefineModule(Object.class.getModule(), Set.of(),
   * Map.of("sun.nio.ch", Set.of(m)), Map.of("java.nio", Set.of(m)), Set.of(), Map.of())} with
   * {@code m = RetentionPricer.class.getModule()}, before {@link #standard} makes the pricer.
   */
  public static String grantJdkAccess(Instrumentation inst) {
    return JdkAccess.grant(inst);
  }

  /**
   * Returns null when the pricer sees all it prices by (the owner of a direct view, whether a
   * buffer is a file mapping, the array behind a read-only heap buffer), else the one line that
   * says what it cannot see and why (first of all: owner tracking of direct buffers unavailable);
   * also said once, to the notice, the first time a value is priced short of it.
   */
  public String limitation() {
    return jdk().limitation();
  }

  /** Returns null with Instrumentation, else the line saying shallow sizes are estimated. */
  public String shallowSizeLimitation() {
    return shallow.limitation();
  }

  /**
   * Returns what retaining {@code value} will charge, copying nothing, within the walk's bounds
   * ({@link Walk#MAX_VISITS} objects and slots, {@link Walk#MAX_NANOS} ns).
   *
   * @throws PricingException when the value cannot be priced: its own code threw, it changed under
   *     the walk, it has more than its size says, or the walk ran out of memory; the caller
   *     declines it
   */
  public Priced estimate(Object value) {
    if (value == null) {
      return NULL_PRICE;
    }
    return estimate(value, kinds.get(value.getClass()));
  }

  /**
   * {@link #estimate(Object)} through {@code memo}, the calling thread's own: a value of the JDK
   * type the thread priced last skips the type's lookup, and a primitive array of the same type and
   * length as the last is priced as it was (its price depends on nothing else; see {@link
   * PriceMemo}).
   */
  public Priced estimate(Object value, PriceMemo memo) {
    return value == null ? NULL_PRICE : memo.price(this, value);
  }

  /** Returns how values of class {@code c} are priced. */
  Kind kind(Class<?> c) {
    return kinds.get(c);
  }

  /** Returns the price of {@code value}, of kind {@code k}, copying nothing. */
  Priced estimate(Object value, Kind k) {
    if (isLeaf(k)) {
      return priceLeaf(value, k, true);
    }
    ValuePricer pricer = pricerFor(value);
    if (pricer != null) {
      return priceBy(pricer, value, k, true);
    }
    if (k.shape == Kind.Shape.OTHER || k.shape == Kind.Shape.SHARED) {
      return k.shape == Kind.Shape.SHARED
          ? Priced.owned(Tier.HEAP, k.typeName, 0)
          : priceShallow(value, k);
    }
    Walk walk = new Walk(this, layout, false, clock);
    try {
      walk.visitTop(value);
    } catch (RetentionException e) {
      throw new AssertionError("an estimate copies nothing", e);
    }
    return walk.priced(k.typeName);
  }

  /**
   * Returns {@code value} ready for the cache with its price (which equals {@link #estimate}): the
   * original, or its materialized copy. Throws when a copy fails (e.g. direct memory is exhausted)
   * or the value cannot be walked: decline the admission.
   */
  public Retained retain(Object value) throws RetentionException {
    if (value == null) {
      return new Retained(null, NULL_PRICE, false);
    }
    try {
      Kind k = kinds.get(value.getClass());
      if (isLeaf(k)) {
        Priced price = priceLeaf(value, k, true);
        return price.materialize()
            ? new Retained(materialize(value, k, price, null), price, true)
            : new Retained(value, price, false);
      }
      ValuePricer pricer = pricerFor(value);
      if (pricer != null) {
        Priced price = priceBy(pricer, value, k, true);
        return price.materialize()
            ? new Retained(materialize(value, k, price, pricer), price, true)
            : new Retained(value, price, false);
      }
      if (k.shape == Kind.Shape.OTHER || k.shape == Kind.Shape.SHARED) {
        return new Retained(value, estimate(value), false);
      }
      Walk walk = new Walk(this, layout, true, null);
      Object kept = walk.visitTop(value);
      Priced price = walk.priced(k.typeName);
      return new Retained(kept, price, kept != value);
    } catch (RuntimeException e) {
      throw new RetentionException("could not price " + value.getClass().getName() + ": " + e, e);
    }
  }

  /**
   * Returns what retaining all of {@code values} charges (each value charged once), copying
   * nothing.
   */
  public long retainedCostEstimate(List<?> values) {
    Walk walk = new Walk(this, layout, false, clock);
    try {
      walk.visitRows(values);
    } catch (RetentionException e) {
      throw new AssertionError("an estimate copies nothing", e);
    }
    return walk.chargedBytes();
  }

  /**
   * Returns {@code values} ready for retention, in order, with what keeping them charges (equal to
   * {@link #retainedCostEstimate}); throws when a materializing copy fails.
   */
  public RetainedRows retainRows(List<?> values) throws RetentionException {
    Walk walk = new Walk(this, layout, true, null);
    List<Object> kept;
    try {
      kept = walk.visitRows(values);
    } catch (RuntimeException e) {
      throw new RetentionException("could not price the rows: " + e, e);
    }
    return new RetainedRows(kept, walk.chargedBytes(), walk.materialized());
  }

  // ---------------------------------------------------------------------------------------------
  // For Walk
  // ---------------------------------------------------------------------------------------------

  Kind kind(Object value) {
    return kinds.get(value.getClass());
  }

  static boolean isLeaf(Kind k) {
    return k.shape == Kind.Shape.PRIMITIVE_ARRAY
        || k.shape == Kind.Shape.BUFFER
        || k.shape == Kind.Shape.STRING
        || k.shape == Kind.Shape.ND_ARRAY
        || k.shape == Kind.Shape.ND4J_ARRAY;
  }

  /** Returns the shallow size of {@code value}: exact with Instrumentation, else estimated. */
  long shallowSize(Object value) {
    return shallow.size(value);
  }

  /** Returns the price of an array, buffer or NDArray; {@code mayCopy} false keeps a view. */
  Priced priceLeaf(Object value, Kind k, boolean mayCopy) {
    switch (k.shape) {
      case PRIMITIVE_ARRAY:
        {
          // The payload is what the value addresses; the allocation, header included, what it pins.
          long length = Array.getLength(value);
          long allocation = layout.array(length, k.elementBytes);
          return new Priced(
              Tier.HEAP, k.typeName, length * k.elementBytes, allocation, allocation, false);
        }
      case STRING:
        return priceString((String) value, k);
      case BUFFER:
        return priceBuffer((Buffer) value, k, mayCopy);
      case ND_ARRAY:
        return priceNdArray(value, k);
      case ND4J_ARRAY:
        return priceNd4jArray(value, k, mayCopy);
      default:
        return priceShallow(value, k);
    }
  }

  Priced priceShallow(Object value, Kind k) {
    return Priced.owned(Tier.HEAP, k.typeName, shallow.size(value));
  }

  /** Returns the first application pricer that supports {@code value}, or null. */
  ValuePricer pricerFor(Object value) {
    for (int i = 0; i < pricers.size(); i++) {
      ValuePricer p = pricers.get(i);
      try {
        if (p.supports(value)) {
          return p;
        }
      } catch (RuntimeException | LinkageError e) {
        tellPricerFailed(p, e);
      }
    }
    return null;
  }

  /** Returns {@code pricer}'s price, charged at least what it addresses; shallow if it throws. */
  Priced priceBy(ValuePricer pricer, Object value, Kind k, boolean mayCopy) {
    Priced p;
    try {
      p = pricer.price(value, this);
    } catch (RuntimeException | LinkageError e) {
      tellPricerFailed(pricer, e);
      return priceShallow(value, k);
    }
    if (p == null) {
      return priceShallow(value, k);
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
  Object materialize(Object value, Kind k, Priced price, ValuePricer pricer)
      throws RetentionException {
    try {
      Object copy =
          pricer != null
              ? pricer.materialize(value, price)
              : k.shape == Kind.Shape.ND4J_ARRAY
                  ? copyNd4jArray(value, k)
                  : BufferCopies.copy((Buffer) value, k.bufferType);
      if (copy == null) {
        throw new IllegalStateException(pricer + " returned no copy");
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

  // ---------------------------------------------------------------------------------------------
  // Leaves
  // ---------------------------------------------------------------------------------------------

  private Priced priceBuffer(Buffer b, Kind k, boolean mayCopy) {
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
      Object owner = jdk().directOwner(b);
      // A slice or typed view of a mapping points at the mapped root, which carries the file.
      if (jdk().fileMapped(owner != null ? owner : b)) {
        return new Priced(Tier.MAPPED, k.typeName, logical, logical, logical, false);
      }
      tier = Tier.DIRECT;
      if (owner == null) {
        tellPartial();
        storage = logical;
      } else if (owner == b) {
        storage = logical;
      } else {
        Kind ownerKind = kinds.get(owner.getClass());
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
          return heapStorage((ByteBuffer) bytes, kinds.get(bytes.getClass()));
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
  private Priced priceString(String s, Kind k) {
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

  private Priced priceNdArray(Object value, Kind k) {
    try {
      long size = (long) k.ndSize.invokeExact(value);
      int elementBytes = (int) k.ndElementBytes.invokeExact(value);
      boolean gpu = (boolean) k.ndOnGpu.invokeExact(value);
      long bytes;
      try {
        bytes = Math.multiplyExact(Math.max(size, 0L), Math.max(elementBytes, 0));
      } catch (ArithmeticException overflow) {
        bytes = Long.MAX_VALUE;
      }
      return Priced.owned(gpu ? Tier.DEVICE : Tier.NATIVE, k.typeName, bytes);
    } catch (RuntimeException e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("NDArray could not be sized: " + t, t);
    }
  }

  /**
   * An INDArray pins its whole buffer, off the heap ({@link Tier#NATIVE}: ND4J's CPU backend
   * allocates through JavaCPP): a view within the slack is charged that buffer, past it (or
   * attached to a workspace, which overwrites it when it closes) it is materialized and charged
   * what it addresses.
   */
  private Priced priceNd4jArray(Object value, Kind k, boolean mayCopy) {
    Nd4jHandles h = k.nd4j;
    try {
      long length = (long) h.length.invokeExact(value);
      long underlying = (long) h.underlyingLength.invokeExact(value);
      int width = (int) h.width.invokeExact(value);
      boolean attached = (boolean) h.attached.invokeExact(value);
      long logical = saturatedMultiply(Math.max(length, 0L), Math.max(width, 0));
      long storage =
          Math.max(logical, saturatedMultiply(Math.max(underlying, 0L), Math.max(width, 0)));
      if (!mayCopy) {
        return new Priced(Tier.NATIVE, k.typeName, logical, storage, storage, false);
      }
      boolean materialize = attached || BudgetPolicy.shouldMaterialize(logical, storage);
      return new Priced(
          Tier.NATIVE, k.typeName, logical, storage, materialize ? logical : storage, materialize);
    } catch (RuntimeException e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("INDArray could not be sized: " + t, t);
    }
  }

  /**
   * Returns an INDArray's copy of its own: a {@code dup()} inside {@code scopeOutOfWorkspaces()},
   * which takes an attached array out of its workspace too (a plain {@code dup()} on a thread with
   * a workspace open would land in that workspace).
   */
  private static Object copyNd4jArray(Object value, Kind k) {
    try {
      AutoCloseable scope = (AutoCloseable) (Object) k.nd4j.outOfWorkspaces.invokeExact();
      try {
        return (Object) k.nd4j.dup.invokeExact(value);
      } finally {
        scope.close();
      }
    } catch (RuntimeException | Error e) {
      throw e;
    } catch (Throwable t) {
      throw new IllegalStateException("INDArray could not be copied: " + t, t);
    }
  }

  private static long saturatedMultiply(long a, long b) {
    try {
      return Math.multiplyExact(a, b);
    } catch (ArithmeticException overflow) {
      return Long.MAX_VALUE;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Saying things once
  // ---------------------------------------------------------------------------------------------

  private void tellPartial() {
    if (!toldPartial.get() && toldPartial.compareAndSet(false, true)) {
      String line = jdk().limitation();
      tell(
          line != null
              ? line
              : "a buffer's backing storage could not be seen; charged its capacity");
    }
  }

  private void tell(String line) {
    try {
      notice.accept(line);
    } catch (RuntimeException e) {
      // a notice that fails is not the pricing's problem
    }
  }

  private void tellPricerFailed(ValuePricer p, Throwable e) {
    if (!toldPricer.get() && toldPricer.compareAndSet(false, true)) {
      tell(
          "ValuePricer "
              + p.getClass().getName()
              + " failed, values it could not price are charged their shallow size: "
              + e);
    }
  }
}
