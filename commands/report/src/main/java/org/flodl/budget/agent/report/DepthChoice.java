package org.flodl.budget.agent.report;

import java.time.Instant;

/**
 * One prefetch-depth or ring-slots decision as recorded: when, the depth asked (-1 for a ring,
 * which is asked none), the depth chosen, the reason and the batch's bytes.
 */
final class DepthChoice {
  final Instant time;
  final long requested;
  final long depth;
  final String reason;
  final long batchBytes;

  DepthChoice(Instant time, long requested, long depth, String reason, long batchBytes) {
    this.time = time;
    this.requested = requested;
    this.depth = depth;
    this.reason = reason;
    this.batchBytes = batchBytes;
  }
}
