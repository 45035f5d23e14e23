package org.flodl.budget.share;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * A consumption rate, smoothed: units (batches or bytes) are counted on the hot path with a {@link
 * LongAdder}, or kept by the caller as a running total the meter reads (counters of its own, with
 * no atomic operation on the counting side), and {@link #sample(long)} turns what was counted since
 * the last sample into an exponentially weighted rate a second, with a time constant of {@code
 * tauMillis}.
 */
public final class RateMeter {
  private static final LongSupplier NONE =
      new LongSupplier() {
        @Override
        public long getAsLong() {
          return 0;
        }
      };

  private final LongAdder count = new LongAdder();
  private final LongSupplier counted;
  private final double tauMillis;
  private long lastCounted;
  private long lastMillis = -1;
  private double rate;

  /** Returns a meter whose rate follows changes with time constant {@code tauMillis}. */
  public RateMeter(double tauMillis) {
    this(tauMillis, NONE);
  }

  /**
   * Returns a meter that also counts what {@code counted} adds to its running total (monotone, read
   * at each sample), with time constant {@code tauMillis}.
   */
  public RateMeter(double tauMillis, LongSupplier counted) {
    this.tauMillis = tauMillis;
    this.counted = counted;
  }

  /** Counts {@code units} consumed. Cheap and thread-safe. */
  public void add(long units) {
    count.add(units);
  }

  /** Returns the smoothed rate after folding in what was counted since the last call. */
  public synchronized double sample(long nowMillis) {
    long total = counted.getAsLong();
    long n = count.sumThenReset() + (total - lastCounted);
    lastCounted = total;
    if (lastMillis < 0) {
      lastMillis = nowMillis;
      return rate;
    }
    long dt = nowMillis - lastMillis;
    if (dt <= 0) {
      count.add(n);
      return rate;
    }
    lastMillis = nowMillis;
    double instant = n * 1000.0 / dt;
    double alpha = 1 - Math.exp(-dt / tauMillis);
    rate = rate == 0 ? instant : rate + alpha * (instant - rate);
    return rate;
  }

  /** Returns the last smoothed rate. */
  public synchronized double rate() {
    return rate;
  }
}
