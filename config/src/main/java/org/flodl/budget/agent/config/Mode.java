package org.flodl.budget.agent.config;

import java.util.Locale;

/**
 * What the agent does with its decisions: {@code enforce} applies them, {@code observe} decides and
 * records but changes nothing, {@code off} installs nothing ({@code enabled=false} is the same).
 */
public enum Mode {
  ENFORCE,
  OBSERVE,
  OFF;

  /** Returns the lower-case name used in arguments and events. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
