package org.flodl.budget.pricing;

import java.util.Objects;
import org.flodl.budget.policy.Tier;

/**
 * What retaining one value costs: the tier its bytes live on, its type, the bytes it addresses
 * ({@code logicalBytes}), the bytes it pins ({@code storageBytes}), what the ledger is charged
 * ({@code chargedBytes}) and whether it will be copied into storage of its own first ({@code
 * materialize}). For a container the sizes are sums over its distinct parts and the tier is the one
 * charged the most. {@code estimated}: the pricer's walk reached its bound and {@code
 * extrapolatedBytes} of the charge are the extrapolation of what it did not reach (the most the
 * charge can be over what the value really pins, besides the walked parts' own error). Negative
 * sizes are read as 0.
 */
public record Priced(
    Tier tier,
    String valueType,
    long logicalBytes,
    long storageBytes,
    long chargedBytes,
    boolean materialize,
    boolean estimated,
    long extrapolatedBytes) {

  public Priced {
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(valueType, "valueType");
    logicalBytes = Math.max(0L, logicalBytes);
    storageBytes = Math.max(0L, storageBytes);
    chargedBytes = Math.max(0L, chargedBytes);
    extrapolatedBytes = Math.max(0L, extrapolatedBytes);
  }

  /** Returns an exact price: nothing extrapolated. */
  public Priced(
      Tier tier,
      String valueType,
      long logicalBytes,
      long storageBytes,
      long chargedBytes,
      boolean materialize) {
    this(tier, valueType, logicalBytes, storageBytes, chargedBytes, materialize, false, 0);
  }

  /** Returns a price for a value that owns what it addresses: charged its bytes, never copied. */
  public static Priced owned(Tier tier, String valueType, long bytes) {
    return new Priced(tier, valueType, bytes, bytes, bytes, false);
  }
}
