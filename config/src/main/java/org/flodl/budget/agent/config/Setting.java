package org.flodl.budget.agent.config;

import java.util.Objects;

/**
 * One effective setting of the agent: its key, its value as text (in the argument syntax) and where
 * the value came from, as the {@code Configuration} event reports it.
 */
public record Setting(String key, String value, Source source) {

  /** Where a setting's value came from, highest precedence first. */
  public enum Source {
    /** {@code -javaagent:...=key=value} or the arguments of {@code attach}. */
    AGENT_ARGS,
    /** {@code -Dflodl.budget.KEY=VALUE}. */
    SYSTEM_PROPERTY,
    /** {@code FLODL_BUDGET_KEY=VALUE}. */
    ENVIRONMENT,
    /** Nobody set it. */
    DEFAULT,
    /** Changed while the job runs (the agent's MBean), after start-up. */
    RUNTIME
  }

  public Setting {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(source, "source");
  }
}
