package org.flodl.budget.agent.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A cache that decides millions of times: the tier's series stays bounded and keeps its peak. */
class TierSeriesTest {
  @Test
  void millionsOfDecisionsKeepTheSeriesBoundedAndThePeak() {
    TierSeries series = new TierSeries("heap");
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    int n = 1_000_000;
    int spike = 777_777;
    for (int i = 0; i < n; i++) {
      long held = i == spike ? 10_000_000 : i % 1000;
      series.addDecision(new Reading(t0.plusNanos(i * 1000L), held, 5_000_000));
    }
    assertTrue(
        series.decisions.size() < TierSeries.MAX_DECISION_POINTS,
        "size " + series.decisions.size());
    assertEquals(10_000_000, series.peakHeld(), "the spike survives the merging");
    assertEquals(5_000_000, series.budgetAtPeak());
    for (int i = 1; i < series.decisions.size(); i++) {
      assertTrue(
          !series.decisions.get(i).time.isBefore(series.decisions.get(i - 1).time),
          "in time order");
    }
  }
}
