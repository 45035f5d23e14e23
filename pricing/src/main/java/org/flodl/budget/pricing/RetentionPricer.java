package org.flodl.budget.pricing;

import java.lang.instrument.Instrumentation;
import java.nio.Buffer;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;

/**
 * Retention pricing for JVM values, the seed's {@code retained_cost_estimate} / {@code
 * retain_rows}: a value is charged what it really pins. A primitive array is charged its whole
 * allocation, header included, on the heap, a String its backing array too; a {@link Buffer}
 * addresses its capacity and pins its whole backing array (heap) or the capacity of the buffer that
 * owns its memory (direct), and past {@link BudgetPolicy#VIEW_SLACK_FACTOR} it is copied into
 * storage of its own and charged what it addresses ({@link BudgetPolicy#retainedCost}); a file
 * mapping is priced by what it addresses and never copied. A library's types are priced by the
 * pricer its {@link TypePricer} gives (the agent's DJL, DL4J, Arrow and Netty units), which may
 * hand the walk the value's parts. Arrays of references, collections (their backing arrays and
 * nodes), maps (keys and values) and an application's objects (through their reference fields) are
 * the sum of their parts, each part charged once, walked within a bound and extrapolated past it
 * ({@link Walk}); anything else is priced by an application's {@link ValuePricer} or by its shallow
 * size. {@link #estimate} and {@link #retain} agree on every value the walk reaches whole.
 * Thread-safe; one per agent.
 */
public final class RetentionPricer {
  private static final Priced NULL_PRICE = Priced.owned(Tier.HEAP, "null", 0);

  private final Supplier<JdkAccess> jdkSource;
  private volatile JdkAccess jdk; // from jdkSource at its first use: see jdk()
  private final ShallowSizer shallow;
  private final Layout layout;
  private final LongSupplier clock;
  private final List<ValuePricer> pricers;
  private final List<TypePricer> libraries;
  private final Cleanup cleanup;
  private final Consumer<String> notice;
  private final Leaves leaves;
  private final Custom custom;
  private volatile Retaining retaining; // made at the first retain: off the agent's start path

  private final ClassValue<Kind> kinds =
      new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
          // An array's kind reads nothing of java.base: no grant for a cache of arrays.
          return type.isArray() ? Kind.array(type) : Kind.of(type, jdk(), libraries);
        }
      };

  RetentionPricer(
      Instrumentation inst, List<ValuePricer> pricers, JdkAccess jdk, Consumer<String> notice) {
    this(inst, pricers, jdk, notice, Defaults.NANO_TIME);
  }

  /** Returns a pricer whose walks read {@code clock} (nanoseconds) for their time bound. */
  RetentionPricer(
      Instrumentation inst,
      List<ValuePricer> pricers,
      JdkAccess jdk,
      Consumer<String> notice,
      LongSupplier clock) {
    this(
        inst,
        List.of(),
        pricers,
        Defaults.constant(Objects.requireNonNull(jdk, "jdk")),
        notice,
        clock);
  }

  /** Returns a pricer that takes its JDK access from {@code jdkSource} when it first needs it. */
  private RetentionPricer(
      Instrumentation inst,
      List<TypePricer> libraries,
      List<ValuePricer> pricers,
      Supplier<JdkAccess> jdkSource,
      Consumer<String> notice,
      LongSupplier clock) {
    this.jdkSource = jdkSource;
    this.shallow = new ShallowSizer(inst);
    this.layout = Layout.of(inst);
    this.libraries = List.copyOf(libraries);
    this.pricers = List.copyOf(pricers);
    this.notice = Objects.requireNonNull(notice, "notice");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.cleanup = new Cleanup(this.notice);
    this.leaves = new Leaves(this, layout, shallow);
    this.custom = new Custom(this, this.pricers);
  }

  /**
   * Returns the pricer the agent uses: JDK access granted through {@code inst} when there is one
   * ({@link #grantJdkAccess}), shallow sizes from {@code inst}, the {@link ValuePricer}s {@code
   * spiLoader} finds (the system class loader when null), limitations said once on stderr.
   */
  public static RetentionPricer standard(Instrumentation instOrNull, ClassLoader spiLoader) {
    return standard(instOrNull, spiLoader, Defaults.STDERR);
  }

  /**
   * Returns {@link #standard(Instrumentation, ClassLoader)} asking {@code libraries} about their
   * types ({@link #standard(Instrumentation, ClassLoader, Consumer, List)}).
   */
  public static RetentionPricer standard(
      Instrumentation instOrNull, ClassLoader spiLoader, List<TypePricer> libraries) {
    return standard(instOrNull, spiLoader, Defaults.STDERR, libraries);
  }

  /**
   * Returns {@link #standard(Instrumentation, ClassLoader)} saying limitations to {@code notice}.
   */
  public static RetentionPricer standard(
      Instrumentation instOrNull, ClassLoader spiLoader, Consumer<String> notice) {
    return standard(instOrNull, spiLoader, notice, List.of());
  }

  /**
   * Returns {@link #standard(Instrumentation, ClassLoader, Consumer)} asking {@code libraries}, in
   * order, about every class that is not an array, a buffer or a string, before anything else.
   */
  public static RetentionPricer standard(
      Instrumentation instOrNull,
      ClassLoader spiLoader,
      Consumer<String> notice,
      List<TypePricer> libraries) {
    List<ValuePricer> found = Defaults.applicationPricers(spiLoader, notice);
    // The grant and the JDK's handles at the first value that needs them (a buffer, a string, a
    // collection): the grant's redefineModule spins lambdas, milliseconds a cache of arrays saves.
    Supplier<JdkAccess> jdk =
        new Supplier<JdkAccess>() {
          @Override
          public JdkAccess get() {
            return JdkAccess.detect(instOrNull == null ? null : grantJdkAccess(instOrNull));
          }
        };
    return new RetentionPricer(instOrNull, libraries, found, jdk, notice, Defaults.NANO_TIME);
  }

  /** Returns the pricer's JDK access, made at the first call. */
  JdkAccess jdk() {
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
    ValuePricer pricer = pricerOf(value, k);
    if (pricer != null && partsBy(pricer, value) == null) {
      return priceBy(pricer, value, k, true);
    }
    if (pricer == null && (k.shape == Kind.Shape.OTHER || k.shape == Kind.Shape.SHARED)) {
      return k.shape == Kind.Shape.SHARED
          ? Priced.owned(Tier.HEAP, k.typeName, 0)
          : priceShallow(value, k);
    }
    Walk walk = new Walk(this, layout, null, clock);
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
    return retain(value, 0);
  }

  /**
   * {@link #retain(Object)}, where an original a library's copy replaces (a reference-counted slice
   * the application made for the cache) is handed back to its library once the application no
   * longer reaches it, as {@link #releaseWhenUnreachable} hands back a declined value, a collection
   * asked for past {@code collectThreshold} pending bytes.
   */
  public Retained retain(Object value, long collectThreshold) throws RetentionException {
    return value == null
        ? new Retained(null, NULL_PRICE, false)
        : retaining().retain(value, collectThreshold);
  }

  /**
   * Returns what retaining all of {@code values} charges (each value charged once), copying
   * nothing.
   */
  public long retainedCostEstimate(List<?> values) {
    Walk walk = new Walk(this, layout, null, clock);
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
    return retaining().retainRows(values);
  }

  /** Returns the retain side, made at its first use (two threads may make one each: no state). */
  private Retaining retaining() {
    Retaining r = retaining;
    if (r == null) {
      r = new Retaining(this, layout, custom, cleanup);
      retaining = r;
    }
    return r;
  }

  /**
   * Hands {@code value}'s references back to its library once the application can no longer reach
   * it, as its pricer says ({@link ValuePricer#releaseWhenUnreachable}): for a value the budget
   * declined, which no cache will release on eviction. Its {@code bytes} count as pending until
   * then, and when the pending bytes have grown by {@code collectThreshold} a collection is asked
   * for on the pricer's own thread (the collector does not see off-heap bytes). A value that holds
   * a library's values (a record or a list of Arrow slices) hands each back. Returns whether
   * anything was registered; never throws.
   */
  public boolean releaseWhenUnreachable(Object value, long bytes, long collectThreshold) {
    try {
      Kind k = value == null ? null : kinds.get(value.getClass());
      return k != null
          && (k.pricer != null
              ? cleanup.release(k.pricer, value, bytes, collectThreshold)
              : k.holdsLibrary && cleanup.releaseParts(this, layout, value, collectThreshold));
    } catch (RuntimeException | LinkageError e) {
      tell("a declined " + value.getClass().getName() + " could not be handed back: " + e);
      return false;
    }
  }

  /**
   * Collects now and hands back every declined value the application no longer reaches, waiting up
   * to {@code maxNanos} for them or for {@code enough} to say so; returns the bytes of declined
   * values still pending (0: none). For a library's close that would report them leaked.
   */
  public long collectDeclined(long maxNanos, BooleanSupplier enough) {
    return cleanup.collect(maxNanos, enough);
  }

  /** Returns the bytes of declined values not handed back yet. */
  public long pendingReleaseBytes() {
    return cleanup.pendingBytes();
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
        || k.shape == Kind.Shape.STRING;
  }

  /** Returns the shallow size of {@code value}: exact with Instrumentation, else estimated. */
  long shallowSize(Object value) {
    return shallow.size(value);
  }

  /** Returns the price of an array, buffer or string; {@code mayCopy} false keeps a view. */
  Priced priceLeaf(Object value, Kind k, boolean mayCopy) {
    return leaves.price(value, k, mayCopy);
  }

  Priced priceShallow(Object value, Kind k) {
    return Priced.owned(Tier.HEAP, k.typeName, shallow.size(value));
  }

  /** Returns the pricer of {@code value}: its library's, or an application's, or null. */
  ValuePricer pricerOf(Object value, Kind k) {
    return k.pricer != null ? k.pricer : pricerFor(value);
  }

  Object[] partsBy(ValuePricer pricer, Object value) {
    return custom.parts(pricer, value);
  }

  ValuePricer pricerFor(Object value) {
    return custom.supporting(value);
  }

  Priced priceBy(ValuePricer pricer, Object value, Kind k, boolean mayCopy) {
    return custom.price(pricer, value, k, mayCopy);
  }

  // ---------------------------------------------------------------------------------------------
  // Saying things once
  // ---------------------------------------------------------------------------------------------

  void tell(String line) {
    try {
      notice.accept(line);
    } catch (RuntimeException e) {
      // a notice that fails is not the pricing's problem
    }
  }
}
