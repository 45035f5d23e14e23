package org.flodl.budget.agent.library;

/**
 * The usage caps a live change sets ({@code AgentControl}'s MBean): {@code ram_max_usage}, {@code
 * heap_max_usage}, {@code vram_max_usage}.
 */
public enum Knob {
  RAM_MAX_USAGE,
  HEAP_MAX_USAGE,
  VRAM_MAX_USAGE
}
