package org.flodl.budget.agent.gate;

import java.util.concurrent.atomic.AtomicLong;
import org.flodl.budget.agent.library.CopyKeeping;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The entries of a cache that keeps a copy, under every interleaving a model checker explores, and
 * under real threads: puts admitted under a few keys (each charge a token the holdings track, held
 * by its key's entry, an older one given back), a {@code putAll}'s charge held by two entries,
 * exits the cache's library reports (one key, or every key at a clear). What it promises: each
 * charge comes back exactly once, whichever way its entry left ({@link #quiescent}: after every
 * entry leaves, the tier holds nothing and the site counted one release for each put).
 */
@Param(name = "key", gen = IntGen.class, conf = "0:2")
public class CopiesLincheckTest {
  private static final long BYTES = 1000;

  private final Holdings holdings = new Holdings();
  private final TierLedger ledger = new TierLedger(Tier.HEAP, 1L << 40);
  private final CacheSite site = new CacheSite("lincheck", 0);
  private final Copies.Entries entries;
  private final AtomicLong puts = new AtomicLong();

  public CopiesLincheckTest() {
    CopyKeeping keeping =
        new CopyKeeping() {
          @Override
          public boolean keepsCopies(Object cache) {
            return true;
          }

          @Override
          public void watch(Object cache, Exits exits) {}

          @Override
          public boolean closed(Object cache) {
            return false;
          }
        };
    entries = holdings.copies.new Entries(keeping, this);
    // the holdings' releaser thread starts at the first value tracked: before the scenario
    Object first = new Object();
    holdings.track(first, ledger, 0, site);
    holdings.release(first, GateThread.current());
  }

  /** A put admitted under {@code key}: its charge reserved, tracked by a token its entry holds. */
  @Operation
  public void put(@Param(name = "key") int key) {
    ledger.reserve(BYTES);
    Copies.Token token = new Copies.Token(1);
    holdings.track(token, ledger, BYTES, site);
    puts.incrementAndGet();
    entries.hold(key, token);
  }

  /**
   * A {@code putAll} of two keys admitted as one charge: one token, held by both entries, given
   * back when the last of them leaves.
   */
  @Operation
  public void putAll(@Param(name = "key") int key, @Param(name = "key") int other) {
    if (key == other) {
      put(key);
      return;
    }
    ledger.reserve(BYTES);
    Copies.Token token = new Copies.Token(2);
    holdings.track(token, ledger, BYTES, site);
    puts.incrementAndGet();
    entries.hold(key, token);
    entries.hold(other, token);
  }

  /** The cache's library reports the entry of {@code key} left. */
  @Operation
  public void left(@Param(name = "key") int key) {
    entries.left(key);
  }

  /** The cache is cleared. */
  @Operation
  public void clear() {
    entries.allLeft();
  }

  @Validate
  public void quiescent() {
    entries.allLeft();
    if (ledger.held() != 0) {
      throw new IllegalStateException(ledger.held() + " bytes held after every entry left");
    }
    long released = site.totalsNow().counts().releases() - 1; // the constructor's first
    if (released != puts.get()) {
      throw new IllegalStateException(released + " releases for " + puts.get() + " puts");
    }
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(12)
        .invocationsPerIteration(150)
        .threads(3)
        .actorsPerThread(3)
        .check(CopiesLincheckTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(200)
        .threads(3)
        .actorsPerThread(4)
        .check(CopiesLincheckTest.class);
  }

  @Tag("lincheck-large")
  @Test
  void modelCheckingLarger() {
    new ModelCheckingOptions()
        .iterations(150)
        .invocationsPerIteration(1000)
        .threads(3)
        .actorsPerThread(5)
        .check(CopiesLincheckTest.class);
  }
}
