package org.flodl.budget.policy.pricing;

import java.util.Objects;
import org.flodl.budget.policy.Tier;

/**
 * What retaining one value costs: the tier its bytes live on, its type, the bytes it addresses
 * ({@code logicalBytes}), the bytes it pins ({@code storageBytes}), what the ledger is charged
 * ({@code chargedBytes}) and whether it will be copied into storage of its own first
 * ({@code materialize}). For a container the sizes are sums over its distinct parts and the tier
 * is the one charged the most. Negative sizes are read as 0.
 */
public record Priced(
    Tier tier,
    String valueType,
    long logicalBytes,
    long storageBytes,
    long chargedBytes,
    boolean materialize) {

  public Priced {
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(valueType, "valueType");
    logicalBytes = Math.max(0L, logicalBytes);
    storageBytes = Math.max(0L, storageBytes);
    chargedBytes = Math.max(0L, chargedBytes);
  }

  /** Returns a price for a value that owns what it addresses: charged its bytes, never copied. */
  public static Priced owned(Tier tier, String valueType, long bytes) {
    return new Priced(tier, valueType, bytes, bytes, bytes, false);
  }
}
