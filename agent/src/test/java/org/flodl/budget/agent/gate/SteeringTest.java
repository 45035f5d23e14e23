package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.agent.library.Bound;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The steering of a cache's own bound, against a bound that records what it is set to. */
class SteeringTest {
  /** A cache of {@code entries} entries of {@code weight} each, under a bound of {@code max}. */
  static final class Recorded implements Bound {
    final Object cache = new Object();
    final List<Long> sets = new ArrayList<>();
    long max;
    long entries;
    long weight = 1;

    Recorded(long max, long entries) {
      this.max = max;
      this.entries = entries;
    }

    @Override
    public Object cache() {
      return cache;
    }

    @Override
    public long maximum() {
      return max;
    }

    @Override
    public long size() {
      return entries * weight;
    }

    @Override
    public long entries() {
      return entries;
    }

    @Override
    public long least() {
      return 1;
    }

    @Override
    public void set(long maximum) {
      sets.add(maximum);
      max = maximum;
      entries = Math.min(entries, maximum / weight);
    }
  }

  @AfterEach
  void giveBack() {
    Steering.giveBack();
  }

  @Test
  void aCacheWithoutABoundIsNotSteered() throws Exception {
    assertNull(Steering.steers(null, new Object()));
    assertEquals(0, Steering.count());
  }

  @Test
  void aLoweringIsAnEighthOfWhatTheCacheHoldsAtMost() throws Exception {
    Recorded b = new Recorded(1_000_000, 80);
    Steering.steers(b, b.cache);
    Steering.over(b.cache, 1 << 30, 1024);
    assertEquals(List.of(70L), b.sets);
  }

  @Test
  void theBoundFallsBelowWhatTheCacheHoldsByTheEntriesTheTierIsOver() throws Exception {
    Recorded b = new Recorded(1_000_000, 80);
    Object view = new Object();
    assertEquals("its own: 1000000", Steering.steers(b, view));
    assertEquals(List.of(), b.sets, "registered, not moved");
    Steering.over(view, 3 * 1024 + 1, 1024);
    assertEquals(List.of(76L), b.sets, "80 held, 3 KiB and a byte over at 1 KiB an entry");
    Steering.over(view, 512, 1024);
    assertEquals(
        List.of(76L), b.sets, "not lowered again within " + Steering.SPACING_NANOS + " ns");
    Steering.admitted(view);
    assertEquals(List.of(76L, 77L), b.sets, "room again: one entry up");
    assertEquals(77, Steering.target(view));
  }

  @Test
  void aWeightedCacheMovesByItsEntriesWeightAndNeverBelowOneEntry() throws Exception {
    Recorded b = new Recorded(10_000, 4);
    b.weight = 100;
    Steering.steers(b, b.cache);
    Steering.over(b.cache, 1, 1024);
    assertEquals(List.of(300L), b.sets, "one entry's weight");
    Recorded one = new Recorded(10_000, 1);
    one.weight = 100;
    Steering.steers(one, one.cache);
    Steering.over(one.cache, 1 << 20, 1024);
    assertEquals(List.of(100L), one.sets, "to the one entry it holds, never below");
  }

  @Test
  void theBoundRisesNoHigherThanTheApplicationsOwn() throws Exception {
    Recorded b = new Recorded(10, 10);
    Steering.steers(b, b.cache);
    Steering.admitted(b.cache);
    assertEquals(List.of(), b.sets, "at its own bound already");
  }

  @Test
  void observeGivesEachCacheItsOwnBoundBack() throws Exception {
    Recorded b = new Recorded(1_000_000, 80);
    Steering.steers(b, b.cache);
    Steering.over(b.cache, 10, 1);
    Steering.giveBack();
    assertEquals(List.of(70L, 1_000_000L), b.sets);
    assertEquals(0, Steering.count());
    Steering.admitted(b.cache);
    assertEquals(2, b.sets.size(), "a cache given back is not moved again");
  }
}
