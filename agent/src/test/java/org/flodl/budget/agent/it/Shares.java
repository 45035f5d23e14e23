package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.HOST_SHARE;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.events.RamBudgetEvent;

/** A rank's host share as its recording says it: the {@code RamBudget} events of the host tier. */
final class Shares {
  private Shares() {}

  /** Returns the native-tier (host RAM) budgets {@code r} recorded, in time order. */
  static List<RecordedEvent> nativeBudgets(ChildJvm.Result r) throws IOException {
    List<RecordedEvent> budgets = new ArrayList<>();
    for (RecordedEvent e : r.events(RamBudgetEvent.NAME)) {
      if ("native".equals(e.getString(TIER))) {
        budgets.add(e);
      }
    }
    assertFalse(budgets.isEmpty(), "no native-tier budget in " + r);
    return budgets;
  }

  /** Returns the last budget time all of {@code results} recorded (the end of their window). */
  static Instant commonEnd(List<ChildJvm.Result> results) throws IOException {
    Instant end = Instant.MAX;
    for (ChildJvm.Result r : results) {
      List<RecordedEvent> b = nativeBudgets(r);
      Instant last = b.get(b.size() - 1).getStartTime();
      end = last.isBefore(end) ? last : end;
    }
    return end;
  }

  /** Returns {@code r}'s mean host share in the 3 s before {@code end}. */
  static double settled(ChildJvm.Result r, Instant end) throws IOException {
    return mean(r, end.minusSeconds(3), end);
  }

  /** Returns {@code r}'s mean host share from {@code from} to {@code to}. */
  static double mean(ChildJvm.Result r, Instant from, Instant to) throws IOException {
    double sum = 0;
    int n = 0;
    for (RecordedEvent e : nativeBudgets(r)) {
      Instant t = e.getStartTime();
      if (!t.isBefore(from) && !t.isAfter(to)) {
        sum += e.getDouble(HOST_SHARE);
        n++;
      }
    }
    assertTrue(n > 0, "no budget of " + r.name + " from " + from + " to " + to);
    return sum / n;
  }
}
