package org.flodl.budget.policy;

/**
 * An anchored host-RAM budget and the inputs it came from: {@code min(maxUsage, 0.90) × (available
 * + held) × hostShare}, less {@code ringBytes} for the sample cache.
 *
 * @param availableBytes what the probe reported free for the tier
 * @param heldBytes what the asking tier already retains (added back: the anchor)
 * @param maxUsage the knob as given ({@code ram_max_usage} or {@code heap_max_usage})
 * @param effectiveUsage the knob after the {@link BudgetPolicy#RAM_SHARE_CEILING}
 * @param hostShare this rank's share of the host (1 for a solo loader)
 * @param ringBytes what the reader ring takes off the top (0 when none)
 * @param budgetBytes the result
 */
public record RamBudget(
    long availableBytes,
    long heldBytes,
    double maxUsage,
    double effectiveUsage,
    double hostShare,
    long ringBytes,
    long budgetBytes) {}
