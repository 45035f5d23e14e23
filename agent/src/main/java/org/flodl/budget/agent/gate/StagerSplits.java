package org.flodl.budget.agent.gate;

import java.util.List;
import org.flodl.budget.policy.RamBudget;
import org.flodl.budget.policy.StagerSplit;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierBudget;

/**
 * A stager's split ({@code role = stager} on a site): every host tier's budget is cut to the pinned
 * three quarters for its caches, and the native tier's (host RAM) flow quarter becomes the
 * prefetch's budget, recorded as a {@code StagerSplit} event when it moves. Called under the
 * budgets' refresh lock.
 */
final class StagerSplits {
  private volatile boolean on;
  private volatile long streamBytes;
  private long lastSplitTotal = -1;

  void on(boolean stager) {
    on = stager;
  }

  boolean on() {
    return on;
  }

  /** Returns the flow quarter of host RAM (0 until a stager refresh). */
  long streamBytes() {
    return streamBytes;
  }

  /** Returns {@code b} cut to its pinned share; adds the split's event to {@code events}. */
  RamBudget split(Tier tier, RamBudget b, List<Runnable> events) {
    TierBudget.Staged staged = TierBudget.staged(b);
    StagerSplit split = staged.split();
    if (tier == Tier.NATIVE) {
      streamBytes = split.streamBytes();
      if (split.totalBytes() != lastSplitTotal) {
        lastSplitTotal = split.totalBytes();
        events.add(
            new Runnable() {
              @Override
              public void run() {
                DecisionEvents.split(split);
              }
            });
      }
    }
    return staged.budget();
  }
}
