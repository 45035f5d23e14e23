package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Each tier's budget law at the seed's numbers ({@code stager_budget_shares_and_anchors}, {@code
 * anchored_budget_is_a_fixed_point_both_ways}, {@code stager_split_is_three_to_one}), and the
 * heap's anchor (the seed's F1) across collections, in process: numbers in, records out.
 */
class TierBudgetTest {

  @Test
  void hostRamTakesTheRanksShareAndTheHeapAndTheGpuDoNot() {
    // Half the host's schedule: half the anchored budget (the seed's stager_ram_budget numbers).
    assertEquals(250, TierBudget.of(Tier.NATIVE, 1000, 0, 0, 0.5, 0.5, 0).budgetBytes());
    assertEquals(250, TierBudget.of(Tier.DIRECT, 800, 200, 200, 0.5, 0.5, 0).budgetBytes());
    // The heap is this JVM's own -Xmx, a GPU its rank's own: no share of them.
    assertEquals(500, TierBudget.of(Tier.HEAP, 1000, 0, 0, 0.5, 0.5, 0).budgetBytes());
    assertEquals(900, TierBudget.of(Tier.DEVICE, 1000, 0, 0, 0.9, 0.5, 0).budgetBytes());
    assertEquals(1.0, TierBudget.of(Tier.HEAP, 1000, 0, 0, 0.5, 0.5, 0).hostShare());
  }

  @Test
  void ringsComeOffTheTopOfTheirTierButNotOffAGpu() {
    // The seed's sample_cache_budget: the ring's fixed cut first.
    assertEquals(400, TierBudget.of(Tier.NATIVE, 1000, 0, 0, 0.5, 1.0, 100).budgetBytes());
    assertEquals(400, TierBudget.of(Tier.HEAP, 1000, 0, 0, 0.5, 1.0, 100).budgetBytes());
    assertEquals(900, TierBudget.of(Tier.DEVICE, 1000, 0, 0, 0.9, 1.0, 100).budgetBytes());
  }

  @Test
  void theBudgetIsAFixedPointAsTheTierFills() {
    long b0 = TierBudget.of(Tier.NATIVE, 1000, 0, 0, 0.5, 1.0, 0).budgetBytes();
    for (long held : new long[] {100, 400, 500}) {
      assertEquals(
          b0, TierBudget.of(Tier.NATIVE, 1000 - held, held, held, 0.5, 1.0, 0).budgetBytes());
    }
  }

  @Test
  void anUnmeasuredTierAdmitsNothing() {
    RamBudget b = TierBudget.of(Tier.DIRECT, -1, 300, 300, 0.5, 0.5, 100);
    assertEquals(new RamBudget(-1, 300, 0.5, 0, 0.5, 0, 0), b);
  }

  @Test
  void eachTierIsBoundedByItsOwnKnob() {
    assertEquals("heap_max_usage", TierBudget.knob(Tier.HEAP));
    assertEquals("vram_max_usage", TierBudget.knob(Tier.DEVICE));
    assertEquals("ram_max_usage", TierBudget.knob(Tier.NATIVE));
    assertEquals("ram_max_usage", TierBudget.knob(Tier.DIRECT));
    assertEquals("ram_max_usage", TierBudget.knob(Tier.MAPPED));
  }

  @Test
  void aStagerKeepsThreeQuartersAndStreamsTheRest() {
    TierBudget.Staged s = TierBudget.staged(TierBudget.of(Tier.NATIVE, 200, 0, 0, 0.5, 1.0, 0));
    assertEquals(new StagerSplit(100, 75, 25), s.split());
    assertEquals(75, s.budget().budgetBytes());
    assertEquals(200, s.budget().availableBytes());
  }

  @Test
  void theHeapAnchorIsWhatWasHeldWhenTheLastCollectionRan() {
    HeapAnchor a = new HeapAnchor();
    // Before any collection the heap in use counts every held byte: the anchor is the held.
    assertEquals(100, a.at(false, 0, 100));
    assertEquals(300, a.at(false, 0, 300));
    // A collection left 5,000 live bytes; 300 were held at the reading before it, 400 are now:
    // the 100 admitted since are not in the live figure yet and must not be added back twice.
    assertEquals(300, a.at(true, 5000, 400));
    // Same collection, more admitted: the anchor does not rise.
    assertEquals(300, a.at(true, 5000, 700));
    // Releases since the collection lower it.
    assertEquals(250, a.at(true, 5000, 250));
    // The next collection anchors at the smaller of the last reading's held and now.
    assertEquals(250, a.at(true, 4000, 600));
    assertEquals(600, a.at(true, 3000, 900));
  }
}
