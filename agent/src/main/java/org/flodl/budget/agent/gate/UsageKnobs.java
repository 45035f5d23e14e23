package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.policy.Tier;

/**
 * The three usage caps ({@code ram_max_usage}, {@code heap_max_usage}, {@code vram_max_usage}):
 * read at every refresh and depth decision, set live by the MBean (the next refresh budgets by
 * them).
 */
final class UsageKnobs {
  private volatile double ram;
  private volatile double heap;
  private volatile double vram;

  UsageKnobs(double ram, double heap, double vram) {
    this.ram = ram;
    this.heap = heap;
    this.vram = vram;
  }

  /** Returns {@code knob}'s value now. */
  double get(Knob knob) {
    return switch (knob) {
      case RAM_MAX_USAGE -> ram;
      case HEAP_MAX_USAGE -> heap;
      case VRAM_MAX_USAGE -> vram;
    };
  }

  /** Sets {@code knob} to {@code value}. */
  void set(Knob knob, double value) {
    switch (knob) {
      case RAM_MAX_USAGE -> ram = value;
      case HEAP_MAX_USAGE -> heap = value;
      case VRAM_MAX_USAGE -> vram = value;
    }
  }

  /** Returns the value of the knob that budgets {@code tier}. */
  double of(Tier tier) {
    return tier == Tier.HEAP ? heap : tier == Tier.DEVICE ? vram : ram;
  }
}
