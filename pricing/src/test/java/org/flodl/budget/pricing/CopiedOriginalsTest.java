package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.ReleasesTest.Allocation;
import org.flodl.budget.pricing.ReleasesTest.Slice;
import org.junit.jupiter.api.Test;

/**
 * A library's copy of a reference-counted view (an Arrow slice copied from its allocator) replaces
 * the reference the application made for the cache: once the retain succeeds that original is
 * released, once, after the application no longer reaches it, and the copy is the cache's; when the
 * retain fails after a copy was made, the copy is released instead and the original stays the
 * application's. Waits are by condition, with generous deadlines.
 */
class CopiedOriginalsTest {
  /**
   * A small slice of a big allocation is copied into an allocation of its own; a bad one throws.
   */
  static final class CopyingLibrary implements TypePricer {
    final List<Allocation> made = new ArrayList<>();

    @Override
    public ValuePricer pricerOf(Class<?> c) {
      if (c != Slice.class) {
        return null;
      }
      return new ValuePricer() {
        @Override
        public boolean supports(Object value) {
          return true;
        }

        @Override
        public Priced price(Object value, RetentionPricer pricer) {
          long b = ((Slice) value).allocation.bytes;
          return new Priced(Tier.NATIVE, "Slice", 16, b, 16, b > 32);
        }

        @Override
        public Object materialize(Object value, Priced price) {
          if (((Slice) value).allocation.bytes == 999) {
            throw new IllegalStateException("the allocator is at its limit");
          }
          Allocation own = new Allocation(16);
          made.add(own);
          return new Slice(own);
        }

        @Override
        public boolean releaseWhenUnreachable(Object value, Releases releases) {
          return ReleasesTest.releaseOnce((Slice) value, releases);
        }
      };
    }
  }

  private final List<String> notices = new ArrayList<>();
  private final CopyingLibrary library = new CopyingLibrary();
  private final RetentionPricer pricer =
      RetentionPricer.standard(null, getClass().getClassLoader(), notices::add, List.of(library));

  @Test
  void theOriginalACopyReplacesIsReleasedOnceWhenTheApplicationLetsGoOfIt() throws Exception {
    Allocation group = new Allocation(16L << 20);
    Slice original = new Slice(group);
    Retained r = pricer.retain(original, 0);
    assertTrue(r.materialized());
    assertNotSame(original, r.value());
    assertEquals(16, r.price().chargedBytes(), "charged the copy");
    Allocation copy = ((Slice) r.value()).allocation;
    assertEquals(group.bytes, pricer.pendingReleaseBytes(), "the original's group awaits");
    pricer.collectDeclined(TimeUnit.MILLISECONDS.toNanos(200), () -> false);
    assertEquals(1, group.refs.get(), "released while the application still reached it");
    assertSame(group, original.allocation); // reached to here

    original = null;
    // Its release and then its group's pending bytes: the bytes come off after the action runs.
    pricer.collectDeclined(
        TimeUnit.SECONDS.toNanos(60),
        () -> group.refs.get() == 0 && pricer.pendingReleaseBytes() == 0);
    assertEquals(0, group.refs.get(), "the original released once unreachable");
    assertEquals(1, copy.refs.get(), "the copy is the cache's");
    assertEquals(0, pricer.pendingReleaseBytes());
    assertTrue(r.value() instanceof Slice); // the cache's copy, reached to here
    assertEquals(List.of(), notices);
  }

  @Test
  void aRetainThatFailsAfterACopyReleasesTheCopyAndLeavesTheOriginal() throws Exception {
    Allocation group = new Allocation(16L << 20);
    Allocation full = new Allocation(999);
    List<Object> row = new ArrayList<>(List.of(new Slice(group), new Slice(full)));
    assertThrows(RetentionException.class, () -> pricer.retain(row, 0));
    assertEquals(1, library.made.size(), "the first slice was copied before the second failed");
    Allocation copy = library.made.get(0);
    pricer.collectDeclined(TimeUnit.SECONDS.toNanos(60), () -> copy.refs.get() == 0);
    assertEquals(0, copy.refs.get(), "the copy nobody holds is released");
    assertEquals(1, group.refs.get(), "the original stays the application's");
    assertEquals(1, full.refs.get());
    assertEquals(2, row.size()); // reached to here
  }
}
