package com.acme.it;

import java.util.ArrayList;
import java.util.List;

/** A prefetching loader that knows nothing of any agent: its queue depth comes from its caller. */
public final class Feeder {
  private final int depth;
  private final int batchBytes;
  private final boolean direct;
  private int served;

  /** Returns a loader that would keep {@code depth} batches of {@code batchBytes} in flight. */
  public Feeder(String name, int depth, int batchBytes, boolean direct) {
    this.depth = depth;
    this.batchBytes = batchBytes;
    this.direct = direct;
  }

  /** Returns the depth the loader runs with. */
  public int depth() {
    return depth;
  }

  /** Returns how deep the loader would like to prefetch next (a depth returned, not passed). */
  public int preferredDepth() {
    return 16;
  }

  /** Returns the next batch: four samples of a quarter of the batch bytes each. */
  public List<Object> next() {
    served++;
    List<Object> batch = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      batch.add(
          direct ? java.nio.ByteBuffer.allocateDirect(batchBytes / 4) : new byte[batchBytes / 4]);
    }
    return batch;
  }
}
