package org.flodl.budget.agent.config;

/**
 * A configuration the agent cannot run with: an unknown key, a bad value or an unreadable sites
 * file. The message is the one line shown to the user; it names the key and what was expected.
 */
public final class ConfigException extends Exception {
  private static final long serialVersionUID = 1L;

  static final String PREFIX = "flodl-budget: ";
  static final String SUFFIX = "; agent disabled";

  private final String key;
  private final String detail;
  private boolean strict;

  /** Creates the exception for {@code key}; {@code detail} is the line without prefix or suffix. */
  public ConfigException(String key, String detail) {
    this(key, detail, null);
  }

  /** Creates the exception for {@code key} with the failure that caused it. */
  public ConfigException(String key, String detail, Throwable cause) {
    super(line(detail, SUFFIX), cause);
    this.key = key;
    this.detail = detail;
  }

  /**
   * Returns the line {@code flodl-budget: DETAIL SUFFIX} under 300 characters, the detail clipped
   * (and escaped) so that the suffix, what happens next, is always read.
   */
  public static String line(String detail, String suffix) {
    return PREFIX + Text.clip(detail, 299 - PREFIX.length() - suffix.length()) + suffix;
  }

  /** Marks whether {@code strict=true} was asked for; returns this exception. */
  ConfigException strict(boolean asked) {
    this.strict = asked;
    return this;
  }

  /**
   * Returns whether {@code strict=true} was asked for where this problem was found (read from the
   * same entries, so a bad other key still honours it): the JVM's start fails instead of the agent
   * turning itself off.
   */
  public boolean strict() {
    return strict;
  }

  /** Returns the key the problem is about, as the user wrote it (e.g. {@code ram_max_usag}). */
  public String key() {
    return key;
  }

  /** Returns the problem without the {@code flodl-budget: } prefix and the closing suffix. */
  public String detail() {
    return detail;
  }
}
