package org.flodl.budget.agent.report;

import java.time.Instant;

/**
 * One reading of a tier (or of VRAM) at a time: the bytes held, the budget and, from the memory
 * probe, the bytes available; -1 is unknown.
 */
final class Reading {
  final Instant time;
  final long held;
  final long budget;
  final long available;

  Reading(Instant time, long held, long budget) {
    this(time, held, budget, -1);
  }

  Reading(Instant time, long held, long budget, long available) {
    this.time = time;
    this.held = held;
    this.budget = budget;
    this.available = available;
  }
}
