package org.flodl.budget.pricing;

/**
 * A value ready for the cache: the original, or its materialized copy when the original was a view
 * pinning more than {@link org.flodl.budget.policy.BudgetPolicy#VIEW_SLACK_FACTOR} times what it
 * addresses, with the price the ledger is charged ({@code price} is the estimate of the original,
 * so {@code price().chargedBytes()} is exactly what {@link RetentionPricer#estimate} said).
 */
public record Retained(Object value, Priced price, boolean materialized) {}
