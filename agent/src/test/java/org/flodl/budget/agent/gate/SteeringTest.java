package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    assertNull(Steering.tighten(null, new Object()));
    assertEquals(0, Steering.count());
  }

  @Test
  void theFirstFullTierStopsTheCacheBelowWhatItHoldsAndMovesAreSpaced() throws Exception {
    Recorded b = new Recorded(1_000_000, 80);
    Object view = new Object();
    assertEquals("from 1000000 to 60", Steering.tighten(b, view));
    assertEquals(List.of(60L), b.sets, "a quarter below what it held when the budget filled");
    assertEquals("from 1000000 to 60", Steering.tighten(b, view));
    assertEquals(List.of(60L), b.sets, "no second move within " + Steering.SPACING_NANOS + " ns");
    Steering.admitted(view);
    assertEquals(List.of(60L), b.sets, "nor a raise");
    assertEquals(1, Steering.count());
  }

  @Test
  void aWeightedCacheMovesByItsEntriesWeightAndNeverBelowOneEntry() throws Exception {
    Recorded b = new Recorded(10_000, 2);
    b.weight = 100;
    Steering.tighten(b, b.cache);
    assertEquals(List.of(150L), b.sets);
    Recorded one = new Recorded(10_000, 1);
    one.weight = 100;
    Steering.tighten(one, one.cache);
    assertEquals(List.of(100L), one.sets, "one entry's weight at least");
  }

  @Test
  void observeGivesEachCacheItsOwnBoundBack() throws Exception {
    Recorded b = new Recorded(1_000_000, 80);
    Steering.tighten(b, b.cache);
    Steering.giveBack();
    assertEquals(List.of(60L, 1_000_000L), b.sets);
    assertEquals(0, Steering.count());
    Steering.admitted(b.cache);
    assertEquals(2, b.sets.size(), "a cache given back is not moved again");
    assertTrue(b.max == 1_000_000);
  }
}
