package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;

/**
 * A library's {@link TypePricer} (here a reference-counted "slice" of a shared "allocation", the
 * shape of an Arrow or Netty buffer) prices its type ahead of the generic law, and a declined value
 * it registers is released once, only after the application no longer reaches it: by {@link
 * RetentionPricer#collectDeclined}, or by the pricer's own thread once the pending bytes pass the
 * threshold, with nothing pending afterwards. Waits are by condition, with generous deadlines.
 */
class ReleasesTest {
  /** What the slices pin: a reference count, released by each slice's holder once. */
  static final class Allocation {
    final AtomicInteger refs = new AtomicInteger();
    final long bytes;

    Allocation(long bytes) {
      this.bytes = bytes;
    }
  }

  /** A slice holding one reference of its allocation. */
  static final class Slice {
    final Allocation allocation;

    Slice(Allocation allocation) {
      this.allocation = allocation;
      allocation.refs.incrementAndGet();
    }
  }

  /** The library's unit: slices charged their allocation, a declined one's reference released. */
  static final class SliceLibrary implements TypePricer {
    final AtomicInteger asked = new AtomicInteger();

    @Override
    public ValuePricer pricerOf(Class<?> c) {
      asked.incrementAndGet();
      if (c != Slice.class) {
        return null;
      }
      return new ValuePricer() {
        @Override
        public boolean supports(Object value) {
          throw new AssertionError("a library's pricer is not asked per value");
        }

        @Override
        public Priced price(Object value, RetentionPricer pricer) {
          long b = ((Slice) value).allocation.bytes;
          return new Priced(Tier.NATIVE, "Slice", 16, b, b, false);
        }

        @Override
        public boolean releaseWhenUnreachable(Object value, Releases releases) {
          return releaseOnce((Slice) value, releases);
        }
      };
    }
  }

  /** Registers the release of {@code slice}'s one reference; throws when it runs twice. */
  static boolean releaseOnce(Slice slice, Releases releases) {
    Allocation a = slice.allocation; // the action holds this, not the slice
    releases.whenUnreachable(
        slice,
        () -> {
          if (a.refs.decrementAndGet() < 0) {
            throw new IllegalStateException("released twice");
          }
        });
    return true;
  }

  private final List<String> notices = new ArrayList<>();
  private final SliceLibrary library = new SliceLibrary();
  private final RetentionPricer pricer =
      RetentionPricer.standard(null, getClass().getClassLoader(), notices::add, List.of(library));

  @Test
  void aLibrarysTypeIsPricedByItsPricerAsPartOfAnyValue() {
    Allocation a = new Allocation(16L << 20);
    Priced p = pricer.estimate(new Slice(a));
    assertEquals(Tier.NATIVE, p.tier());
    assertEquals(16L << 20, p.chargedBytes());
    // Inside a list: the list's own object and its slot, and the slice's allocation.
    Priced list = pricer.estimate(new ArrayList<>(List.of(new Slice(a))));
    assertTrue(list.chargedBytes() > 16L << 20, "" + list);
    assertEquals(Tier.NATIVE, list.tier());
    int asked = library.asked.get();
    pricer.estimate(new Slice(a));
    assertEquals(asked, library.asked.get(), "asked once per class");
  }

  @Test
  void aDeclinedSliceIsReleasedOnceOnlyWhenUnreachable() throws Exception {
    Allocation a = new Allocation(1 << 20);
    Slice kept = new Slice(a);
    assertTrue(pricer.releaseWhenUnreachable(kept, a.bytes, 0));
    assertFalse(pricer.releaseWhenUnreachable("not a library's", 10, 0), "nothing to release");
    assertEquals(a.bytes, pricer.pendingReleaseBytes());
    // Reached by the application: a collection releases nothing (a short wait: nothing can come).
    pricer.collectDeclined(TimeUnit.MILLISECONDS.toNanos(200), () -> false);
    assertEquals(1, a.refs.get(), "released while the application still reached it");
    assertEquals(a.bytes, pricer.pendingReleaseBytes());
    assertSame(a, kept.allocation); // kept reachable to here

    kept = null;
    // Its release and then its group's pending bytes: the bytes come off after the action runs.
    long pending =
        pricer.collectDeclined(
            TimeUnit.SECONDS.toNanos(60),
            () -> a.refs.get() == 0 && pricer.pendingReleaseBytes() == 0);
    assertEquals(0, a.refs.get(), "released once it was unreachable");
    assertEquals(0, pending);
    assertEquals(List.of(), notices);
  }

  /** An application's sample holding a library's value: the shape an Arrow sample record has. */
  record Sample(Slice features, int label) {}

  @Test
  void aDeclinedValueHoldingLibraryValuesHandsEachBack() throws Exception {
    Allocation a = new Allocation(1 << 20);
    Allocation b = new Allocation(2 << 20);
    Sample one = new Sample(new Slice(a), 7);
    List<Object> many = new ArrayList<>(List.of(new Slice(b), new Slice(b), "label"));
    // The admission prices them first (that is when the walk learns their classes hold slices).
    assertEquals(
        1 << 20,
        pricer.estimate(one).chargedBytes() - pricer.estimate(new Sample(null, 0)).chargedBytes());
    pricer.estimate(many);
    assertTrue(pricer.releaseWhenUnreachable(one, 0, 0));
    assertTrue(pricer.releaseWhenUnreachable(many, 0, 0));
    assertFalse(pricer.releaseWhenUnreachable(new Sample(null, 1), 0, 0), "nothing in it");
    assertEquals(a.bytes + 2 * b.bytes, pricer.pendingReleaseBytes(), "each part's price");
    pricer.collectDeclined(TimeUnit.MILLISECONDS.toNanos(200), () -> false);
    assertEquals(1, a.refs.get(), "released while the application still reached it");
    assertEquals(2, b.refs.get());
    assertEquals(7, one.label()); // both kept reachable to here
    assertEquals(3, many.size());

    one = null;
    many = null;
    pricer.collectDeclined(
        TimeUnit.SECONDS.toNanos(60),
        () -> a.refs.get() == 0 && b.refs.get() == 0 && pricer.pendingReleaseBytes() == 0);
    assertEquals(0, a.refs.get());
    assertEquals(0, b.refs.get());
    assertEquals(0, pricer.pendingReleaseBytes());
  }

  /**
   * The bound the asks keep: each time the pending bytes grow by a threshold the thread collects,
   * freeing all declined before that moment; so once it has caught up, at most a threshold, the
   * value being registered at the last ask and the one after its collection stay pending, without
   * anyone calling collectDeclined.
   */
  @Test
  void pendingBytesPastTheThresholdAskForACollectionNoCallerWaitsFor() throws Exception {
    Allocation a = new Allocation(1 << 20);
    long threshold = 4 << 20;
    for (int i = 0; i < 32; i++) { // 32 MiB declined, each unreachable once registered
      pricer.releaseWhenUnreachable(new Slice(a), a.bytes, threshold);
    }
    assertSettlesWithin(threshold + 2 * a.bytes);
    assertTrue(a.refs.get() <= 6, "26 of 32 released by the thread's collections: " + a.refs);
    pricer.collectDeclined(TimeUnit.SECONDS.toNanos(60), () -> pricer.pendingReleaseBytes() == 0);
    assertEquals(0, a.refs.get());
    assertEquals(0, pricer.pendingReleaseBytes());
  }

  @Test
  void registrationsOfAThresholdEachAreReleasedWithoutACallerCollecting() throws Exception {
    // Each registration a whole threshold: the thread is asked at each, and the fourth finds it
    // four thresholds behind, so the declining thread collects too (the backstop); either way the
    // same bound holds.
    Allocation a = new Allocation(4 << 20);
    for (int i = 0; i < 8; i++) {
      pricer.releaseWhenUnreachable(new Slice(a), a.bytes, a.bytes);
    }
    assertSettlesWithin(3 * a.bytes);
    assertTrue(a.refs.get() <= 3, "5 of 8 released: " + a.refs.get());
  }

  /** Waits (60 s at most) for the pending bytes to come within {@code bound}, and asserts it. */
  private void assertSettlesWithin(long bound) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (pricer.pendingReleaseBytes() > bound && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertTrue(pricer.pendingReleaseBytes() <= bound, "pending " + pricer.pendingReleaseBytes());
  }

  @Test
  void aReleaseThatThrowsIsSaidOnceAndCountsAsDone() throws Exception {
    Allocation a = new Allocation(1 << 20);
    a.refs.set(-100); // the library says the reference count went negative
    for (int i = 0; i < 3; i++) {
      pricer.releaseWhenUnreachable(new Slice(a), a.bytes, 0);
    }
    pricer.collectDeclined(TimeUnit.SECONDS.toNanos(60), () -> pricer.pendingReleaseBytes() == 0);
    assertEquals(0, pricer.pendingReleaseBytes());
    assertEquals(1, notices.size(), "" + notices);
    assertTrue(notices.get(0).contains("released twice"), notices.get(0));
  }
}
