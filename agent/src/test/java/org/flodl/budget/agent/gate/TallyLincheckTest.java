package org.flodl.budget.agent.gate;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tally under every interleaving a model checker explores, and under real threads: threads add
 * to a pair (a count and its bytes, one packed word) and to a plain counter while others drain. The
 * pair's bytes start two adds short of their carry mark, so the scenarios carry the packed word
 * while other adds and drains race it. What it promises: every add is drained exactly once (the
 * drains' sums and a last drain at quiescence equal what was added, {@link #quiescent}), and a
 * count an add reads back is its own or -1 ({@link #addPair}: no two adds of a cell read the same
 * count).
 */
@Param(name = "bytes", gen = IntGen.class, conf = "0:268435455")
public class TallyLincheckTest {
  private static final int COUNTERS = 4; // pair 0 (count, bytes), then plain counters 2 and 3
  private static final int PRELOAD = 2046; // adds of the most bytes one packs: 2 short of a carry

  private final Tally tally = new Tally(COUNTERS, 1);
  private final AtomicLongArray added = new AtomicLongArray(COUNTERS);
  private final AtomicLongArray drained = new AtomicLongArray(COUNTERS);
  private final Set<Long> countsSeen = ConcurrentHashMap.newKeySet();

  public TallyLincheckTest() {
    GateThread t = GateThread.current();
    for (int i = 0; i < PRELOAD; i++) {
      addPair(t, (int) Tally.PACKED_BYTES_MAX);
    }
  }

  /** Returns whether the count this add read back (when it could) was no other add's. */
  @Operation
  public boolean addPair(@Param(name = "bytes") int bytes) {
    return addPair(GateThread.current(), bytes);
  }

  private boolean addPair(GateThread t, int bytes) {
    long[] cell = tally.cell(t);
    long n = tally.addPair(t, cell, 0, bytes, true);
    added.addAndGet(0, 1);
    added.addAndGet(1, bytes);
    long cellIndex = tally.indexOf(cell); // the cell this add went to (kept when the table grows)
    return n < 0 || countsSeen.add((cellIndex << 32) ^ n);
  }

  @Operation
  public void add(@Param(name = "bytes") int x) {
    GateThread t = GateThread.current();
    tally.add(t, tally.cell(t), 2, x);
    added.addAndGet(2, x);
  }

  @Operation
  public void drain() {
    long[] d = tally.drain();
    for (int i = 0; i < COUNTERS; i++) {
      drained.addAndGet(i, d[i]);
    }
  }

  @Validate
  public void quiescent() {
    long[] d = tally.drain();
    for (int i = 0; i < COUNTERS; i++) {
      if (drained.get(i) + d[i] != added.get(i)) {
        throw new IllegalStateException(
            "counter " + i + ": drained " + (drained.get(i) + d[i]) + ", added " + added.get(i));
      }
    }
  }

  @Test
  void modelChecking() {
    new ModelCheckingOptions()
        .iterations(8)
        .invocationsPerIteration(100)
        .threads(3)
        .actorsPerThread(3)
        .check(TallyLincheckTest.class);
  }

  @Test
  void stress() {
    new StressOptions()
        .iterations(10)
        .invocationsPerIteration(100)
        .threads(3)
        .actorsPerThread(4)
        .check(TallyLincheckTest.class);
  }

  @Tag("lincheck-large")
  @Test
  void modelCheckingLarger() {
    new ModelCheckingOptions()
        .iterations(60)
        .invocationsPerIteration(500)
        .threads(3)
        .actorsPerThread(5)
        .check(TallyLincheckTest.class);
  }
}
