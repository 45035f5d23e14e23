package org.flodl.budget.agent.config;

import java.util.Locale;

/** How much the agent writes to stderr: {@code warn}, {@code info} or {@code debug}. */
public enum LogLevel {
  WARN,
  INFO,
  DEBUG;

  /** Returns the lower-case name used in arguments. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
