package org.flodl.budget.agent.library;

/**
 * A framework whose prefetch the agent reads its own way ({@code adapter = djl}): it takes a depth
 * site's decisions from the call's arguments (DJL's dataset, sampler and device) and prices its
 * batches by what they are, instead of the sites-file way. What it needs of the engine it asks of
 * the {@link DepthContext} it is handed.
 */
public interface DepthAdapter {
  /** Returns the depth for a call with {@code arguments} that requested {@code requested}. */
  int depth(DepthContext engine, int requested, Object[] arguments);

  /** Prices {@code batch}, returned on {@code receiver}. */
  void batch(DepthContext engine, Object receiver, Object batch);
}
