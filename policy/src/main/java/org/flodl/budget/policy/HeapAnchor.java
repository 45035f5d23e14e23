package org.flodl.budget.policy;

/**
 * What the heap tier adds back to its available bytes (the seed's F1). Available heap is max heap
 * minus the live heap the last collection left: bytes admitted after that collection are not in it
 * yet, so adding back all that is held now would count them twice and ratchet the budget toward the
 * whole heap. The anchor is what was held when that collection ran, taken as the smaller of the
 * held bytes at the reading before it and now; releases since lower it, nothing raises it until the
 * next collection; before any collection the probe reports the heap in use, which counts every held
 * byte, so the anchor is what is held.
 *
 * <p>One per heap tier, read at each probe reading; not safe for concurrent readings (its caller
 * reads the probes under one lock).
 */
public final class HeapAnchor {
  private long anchorHeld;
  private long lastLive = Long.MIN_VALUE;
  private long heldAtLastReading;

  /**
   * Returns the anchor at a reading of the heap.
   *
   * @param afterGc whether the reading's live bytes are what a collection left (else the heap in
   *     use, garbage included)
   * @param liveBytes the reading's live heap bytes
   * @param heldNow what the heap tier holds now
   */
  public long at(boolean afterGc, long liveBytes, long heldNow) {
    if (!afterGc) {
      anchorHeld = heldNow;
    } else if (liveBytes != lastLive) {
      lastLive = liveBytes;
      anchorHeld = Math.min(heldAtLastReading, heldNow);
    }
    heldAtLastReading = heldNow;
    return Math.min(anchorHeld, heldNow);
  }
}
