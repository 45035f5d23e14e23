package org.flodl.budget.share;

import java.util.concurrent.atomic.LongAdder;

/**
 * A consumption rate, smoothed: units (batches or bytes) are counted on the hot path with a
 * {@link LongAdder}, and {@link #sample(long)} turns what was counted since the last sample into an
 * exponentially weighted rate a second, with a time constant of {@code tauMillis}.
 */
public final class RateMeter {
  private final LongAdder count = new LongAdder();
  private final double tauMillis;
  private long lastMillis = -1;
  private double rate;

  /** Returns a meter whose rate follows changes with time constant {@code tauMillis}. */
  public RateMeter(double tauMillis) {
    this.tauMillis = tauMillis;
  }

  /** Counts {@code units} consumed. Cheap and thread-safe. */
  public void add(long units) {
    count.add(units);
  }

  /** Returns the smoothed rate after folding in what was counted since the last call. */
  public synchronized double sample(long nowMillis) {
    long n = count.sumThenReset();
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
