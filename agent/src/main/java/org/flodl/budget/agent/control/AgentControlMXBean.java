package org.flodl.budget.agent.control;

import java.util.Map;

/**
 * The agent as JDK Mission Control's MBean browser shows it ({@code org.flodl.budget:type=Agent}):
 * the mode and the three knobs, which a person may change while the job runs, and each tier's held
 * and budget bytes.
 */
public interface AgentControlMXBean {
  /** Returns {@code enforce} or {@code observe}. */
  String getMode();

  /** Sets {@code enforce} or {@code observe}; anything else is refused. */
  void setMode(String mode);

  /** Returns {@code ram_max_usage}. */
  double getRamMaxUsage();

  /** Sets {@code ram_max_usage}; the tiers are re-budgeted at once. */
  void setRamMaxUsage(double value);

  /** Returns {@code heap_max_usage}. */
  double getHeapMaxUsage();

  /** Sets {@code heap_max_usage}; the tiers are re-budgeted at once. */
  void setHeapMaxUsage(double value);

  /** Returns {@code vram_max_usage}. */
  double getVramMaxUsage();

  /** Sets {@code vram_max_usage}; the tiers are re-budgeted at once. */
  void setVramMaxUsage(double value);

  /** Returns each tier's held bytes, by tier label. */
  Map<String, Long> getHeldBytes();

  /** Returns each tier's budget bytes, by tier label. */
  Map<String, Long> getBudgetBytes();
}
