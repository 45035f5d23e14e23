package org.flodl.budget.pricing;

import static org.flodl.budget.pricing.ContainerPricingTest.arr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.AbstractCollection;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The pricer's walk is bounded ({@link Walk#MAX_VISITS} objects and slots, {@link Walk#MAX_NANOS}
 * by its clock, here a fake one) and extrapolates past the bound, saying so; whole allocations are
 * charged; a value whose size cannot be told, or that throws or changes under the walk, is a {@link
 * PricingException}, never a price.
 */
class BoundedWalkTest {
  private final AtomicLong now = new AtomicLong();
  private final AtomicLong reads = new AtomicLong();
  private long tick = 0;
  private final LongSupplier clock =
      () -> {
        reads.incrementAndGet();
        return now.addAndGet(tick);
      };
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), line -> {}, clock);

  /** A collection that counts how often its iterator was drawn, and may never end. */
  static final class Endless extends AbstractCollection<Object> {
    final AtomicLong draws = new AtomicLong();
    final int claimedSize;
    final Object element = new byte[16];

    Endless(int claimedSize) {
      this.claimedSize = claimedSize;
    }

    @Override
    public Iterator<Object> iterator() {
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return true;
        }

        @Override
        public Object next() {
          draws.incrementAndGet();
          return element;
        }
      };
    }

    @Override
    public int size() {
      return claimedSize;
    }
  }

  @Test
  void anIteratorThatNeverEndsIsDrawnAtMostTheBoundAndCannotBePriced() {
    Endless endless = new Endless(3);
    PricingException e = assertThrows(PricingException.class, () -> pricer.estimate(endless));
    assertEquals("UNBOUNDED", e.reason());
    assertTrue(endless.draws.get() <= Walk.MAX_VISITS, endless.draws.get() + " draws");
  }

  @Test
  void aHugeSizeIsExtrapolatedFromTheElementsWalkedAndSaysSo() {
    Endless big = new Endless(Integer.MAX_VALUE);
    Priced p = pricer.estimate(big);
    assertTrue(p.estimated());
    assertTrue(big.draws.get() <= Walk.MAX_VISITS);
    // one 16-byte array seen again and again: the mean is tiny, the rest extrapolated from it
    assertTrue(
        p.extrapolatedBytes() > 0 && p.chargedBytes() >= p.extrapolatedBytes(), p.toString());

    Priced copies = pricer.estimate(Collections.nCopies(Integer.MAX_VALUE, "x"));
    assertTrue(copies.estimated(), copies.toString());
  }

  @Test
  void referenceArraysAndListsOfNullsAreChargedTheirWholeAllocation() {
    int n = 10_000_000;
    Object[] nulls = new Object[n];
    Priced p = pricer.estimate(nulls);
    assertEquals(arr(n, 4), p.chargedBytes(), "40 MB of references, nothing extrapolated");
    assertEquals(0, p.extrapolatedBytes());
    assertTrue(p.estimated(), "the walk stopped at its bound");

    ArrayList<Object> list = new ArrayList<>(Collections.nCopies(n, null));
    Priced l = pricer.estimate(list);
    assertEquals(ShallowSizer.estimate(ArrayList.class) + arr(n, 4), l.chargedBytes());
  }

  @Test
  void aLargeStringIsChargedItsBytes() {
    String s = "a".repeat(100 << 20);
    Priced p = pricer.estimate(s);
    assertEquals(ShallowSizer.estimate(String.class) + arr(100L << 20, 1), p.chargedBytes());
    assertFalse(p.estimated());
  }

  @Test
  void tenMillionSmallObjectsAreExtrapolatedWithinTenPercent() {
    int n = 10_000_000;
    Object[] many = new Object[n];
    for (int i = 0; i < n; i++) {
      many[i] = new Object();
    }
    long real = arr(n, 4) + (long) n * ShallowSizer.estimate(Object.class);
    Priced p = pricer.estimate(many);
    assertTrue(p.estimated());
    assertTrue(Math.abs(p.chargedBytes() - real) <= real / 10, p + " vs " + real);
  }

  @Test
  void tenThousandEqualSamplesInAListArePricedExactly() {
    List<float[]> samples = new ArrayList<>(10_000);
    for (int i = 0; i < 10_000; i++) {
      samples.add(new float[256]);
    }
    Priced p = pricer.estimate(samples);
    assertFalse(p.estimated(), p.toString());
    assertEquals(
        ShallowSizer.estimate(ArrayList.class) + arr(10_000, 4) + 10_000 * arr(256, 4),
        p.chargedBytes(),
        "the list, its backing array, each sample");
  }

  @Test
  void theClockBoundStopsTheWalkAndTheBoundIsReadOnlyNowAndThen() {
    tick = 10_000; // 10 µs a read: a walk of ~6,400 visits reaches 1 ms
    List<Object> objects = new ArrayList<>();
    for (int i = 0; i < 500_000; i++) {
      objects.add(new int[1]);
    }
    reads.set(0);
    Priced p = pricer.estimate(objects);
    assertTrue(p.estimated(), p.toString());
    assertTrue(reads.get() <= Walk.MAX_NANOS / tick + 2, reads.get() + " clock reads");
    long real = ShallowSizer.estimate(ArrayList.class) + 500_000L * arr(1, 4);
    assertTrue(
        p.chargedBytes() >= real,
        "equal elements: the extrapolation meets the rest " + p + " vs " + real);
  }

  static final class Node {
    Node next;
  }

  @Test
  void aLinkedRingOrListsNestedDeeperThanTheWalkCannotBePriced() {
    Node head = new Node();
    Node n = head;
    for (int i = 0; i < 1_000_000; i++) {
      n.next = new Node();
      n = n.next;
    }
    n.next = head;
    assertEquals(
        "UNBOUNDED", assertThrows(PricingException.class, () -> pricer.estimate(head)).reason());

    List<Object> nested = new ArrayList<>();
    List<Object> at = nested;
    for (int i = 0; i < 100_000; i++) {
      List<Object> inner = new ArrayList<>();
      at.add(inner);
      at = inner;
    }
    assertEquals(
        "UNBOUNDED", assertThrows(PricingException.class, () -> pricer.estimate(nested)).reason());
  }

  @Test
  void aMapChangedUnderTheWalkAndAValueWhoseCodeThrowsCannotBePriced() {
    Map<Object, Object> changing =
        new HashMap<>() {
          @Override
          public Set<Map.Entry<Object, Object>> entrySet() {
            throw new ConcurrentModificationException("another thread put");
          }
        };
    changing.put("a", new byte[1]);
    assertEquals(
        "CHANGED", assertThrows(PricingException.class, () -> pricer.estimate(changing)).reason());

    List<Object> throwing =
        new AbstractList<>() {
          @Override
          public Object get(int index) {
            throw new IllegalStateException("decoding failed");
          }

          @Override
          public int size() {
            return 3;
          }
        };
    assertEquals(
        "THREW",
        assertThrows(PricingException.class, () -> pricer.estimate(new Object[] {throwing}))
            .reason());
  }

  @Test
  void aRecordIsWalkedThroughItsFields() {
    record Sample(float[] features, String label, Object shared) {}
    Sample s = new Sample(new float[100], "cat", Thread.currentThread());
    Priced p = pricer.estimate(s);
    assertEquals(
        ShallowSizer.estimate(Sample.class)
            + arr(100, 4)
            + ShallowSizer.estimate(String.class)
            + arr(3, 1),
        p.chargedBytes(),
        "its fields, and nothing of the thread it shares");
  }
}
