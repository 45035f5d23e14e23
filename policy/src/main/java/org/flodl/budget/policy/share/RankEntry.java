package org.flodl.budget.policy.share;

import java.util.Locale;
import java.util.Properties;

/**
 * One co-hosted rank's line in the host-share registry: who it is, how fast it consumes, and
 * when it last said so.
 *
 * @param pid the rank's process id
 * @param rate its smoothed consumption rate (batches or bytes a second; only ratios matter)
 * @param heartbeatMillis wall-clock time of its last heartbeat
 */
public record RankEntry(long pid, double rate, long heartbeatMillis) {

  /** Returns the entry as the properties text written to the registry. */
  String format() {
    return String.format(
        Locale.ROOT, "version=1%npid=%d%nrate=%s%nheartbeat=%d%n", pid, Double.toString(rate),
        heartbeatMillis);
  }

  /**
   * Returns the entry read from {@code props}.
   *
   * @throws IllegalArgumentException when a field is missing or not a number, or the rate is
   *     negative or not finite
   */
  static RankEntry parse(Properties props) {
    if (!"1".equals(props.getProperty("version"))) {
      throw new IllegalArgumentException("unknown version " + props.getProperty("version"));
    }
    long pid = Long.parseLong(required(props, "pid"));
    double rate = Double.parseDouble(required(props, "rate"));
    long heartbeat = Long.parseLong(required(props, "heartbeat"));
    if (!Double.isFinite(rate) || rate < 0) {
      throw new IllegalArgumentException("rate must be a finite non-negative number: " + rate);
    }
    return new RankEntry(pid, rate, heartbeat);
  }

  private static String required(Properties props, String key) {
    String v = props.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException("missing " + key);
    }
    return v.trim();
  }
}
