package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Percentage;
import jdk.jfr.StackTrace;

/**
 * One anchored budget computed for a tier: {@code min(maxUsage, 0.90) × (available + held) ×
 * hostShare}, less the ring's bytes. Computed whenever a probe reading moves the budget, which can
 * be often, so it records no stack trace.
 */
@Name(RamBudgetEvent.NAME)
@Label("RAM Budget")
@Category({Categories.ROOT, Categories.BUDGET})
@Description("A tier's anchored budget and the inputs it came from")
@StackTrace(false)
public final class RamBudgetEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.budget.RamBudget";

  @Label("Tier")
  @Description("The memory tier: heap, direct, native, mapped or device")
  String tier;

  @Label("Available")
  @Description("Bytes the tier's probe reported available, -1 when unknown")
  @DataAmount
  long availableBytes;

  @Label("Held")
  @Description("Bytes the tier already retains, added back as the anchor")
  @DataAmount
  long heldBytes;

  @Label("Max Usage")
  @Description("The knob as given (ram_max_usage or heap_max_usage)")
  @Percentage
  double maxUsage;

  @Label("Host Share")
  @Description("This process's share of the host (1 for a solo loader)")
  @Percentage
  double hostShare;

  @Label("Ring Size")
  @Description("Bytes the reader ring takes off the top (0 when none)")
  @DataAmount
  long ringBytes;

  @Label("Budget")
  @Description("The tier's budget")
  @DataAmount
  long budgetBytes;

  /** Commits one budget event when the event is enabled; a disabled event costs a branch. */
  public static void emit(
      String tier,
      long availableBytes,
      long heldBytes,
      double maxUsage,
      double hostShare,
      long ringBytes,
      long budgetBytes) {
    RamBudgetEvent event = new RamBudgetEvent();
    if (event.shouldCommit()) {
      event.tier = tier;
      event.availableBytes = availableBytes;
      event.heldBytes = heldBytes;
      event.maxUsage = maxUsage;
      event.hostShare = hostShare;
      event.ringBytes = ringBytes;
      event.budgetBytes = budgetBytes;
      event.commit();
    }
  }
}
