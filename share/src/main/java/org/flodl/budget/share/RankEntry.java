package org.flodl.budget.share;

import java.util.Locale;
import java.util.Properties;

/**
 * One co-hosted rank's line in the host-share registry: who it is (its pid and when that process
 * started, so a reused pid is told apart), how fast it consumes, and when it last said so.
 *
 * @param pid the rank's process id
 * @param startMillis when its process started (wall clock), -1 when unknown
 * @param rate its smoothed consumption rate (batches or bytes a second; only ratios matter)
 * @param heartbeatMillis wall-clock time of its last heartbeat
 */
public record RankEntry(long pid, long startMillis, double rate, long heartbeatMillis) {
  /** The largest rate an entry may claim; more is a corrupt or hostile entry. */
  static final double MAX_RATE = 1e15;

  /** Returns an entry whose process start is not known (tests of the share rule). */
  public RankEntry(long pid, double rate, long heartbeatMillis) {
    this(pid, -1, rate, heartbeatMillis);
  }

  /** Returns the entry as the properties text written to the registry. */
  String format() {
    return String.format(
        Locale.ROOT,
        "version=2%npid=%d%nstart=%d%nrate=%s%nheartbeat=%d%n",
        pid,
        startMillis,
        Double.toString(rate),
        heartbeatMillis);
  }

  /**
   * Returns the entry read from {@code props}.
   *
   * @throws IllegalArgumentException when a field is missing or not a number, or the rate is
   *     negative, not finite or past {@link #MAX_RATE}
   */
  static RankEntry parse(Properties props) {
    if (!"2".equals(props.getProperty("version"))) {
      throw new IllegalArgumentException("unknown version " + props.getProperty("version"));
    }
    long pid = Long.parseLong(required(props, "pid"));
    long start = Long.parseLong(required(props, "start"));
    double rate = Double.parseDouble(required(props, "rate"));
    long heartbeat = Long.parseLong(required(props, "heartbeat"));
    if (!Double.isFinite(rate) || rate < 0 || rate > MAX_RATE) {
      throw new IllegalArgumentException(
          "rate must be a finite number from 0 to " + MAX_RATE + ": " + rate);
    }
    if (pid <= 0) {
      throw new IllegalArgumentException("pid must be positive: " + pid);
    }
    return new RankEntry(pid, start, rate, heartbeat);
  }

  private static String required(Properties props, String key) {
    String v = props.getProperty(key);
    if (v == null) {
      throw new IllegalArgumentException("missing " + key);
    }
    return v.trim();
  }
}
