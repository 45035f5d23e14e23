package org.flodl.budget.agent.report;

import java.time.Instant;

/**
 * One effective setting as the recording's configuration events say it: its key, value and the
 * source it came from ({@code ?} where not said), and when it was recorded, the latest of a key
 * winning.
 */
final class RecordedSetting {
  final String key;
  final String value;
  final String source;
  final Instant time;

  RecordedSetting(String key, String value, String source, Instant time) {
    this.key = Format.orElse(key, "?");
    this.value = value == null ? "" : value;
    this.source = Format.orElse(source, "?");
    this.time = time;
  }
}
