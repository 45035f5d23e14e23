package org.flodl.budget.agent.gate;

import static org.flodl.budget.agent.gate.ModelChecks.scenario;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tally's carries under every interleaving a model checker explores, and under real threads.
 * Every thread adds to one cell (the tally grows to one), whose pair (a count and its bytes, one
 * packed word) is carried at a count of {@value #COUNT_CARRY} and at 2^28 bytes, so adds, drains
 * and reads race a carry in that cell. It guards against two races:
 *
 * <ul>
 *   <li>a carry that overwrites the packed word instead of subtracting what it moved: an add that
 *       lands between the carry's read of the word and its write is lost, and the drains come short
 *       of what was added ({@link #quiescent});
 *   <li>a reader that takes a cell while a carry is under way (the word emptied and the wide
 *       counters not yet filled, or the other way round): a total reads short of the adds done
 *       before the read began, or past those begun by its end ({@link #total}, {@link #drain}).
 * </ul>
 *
 * <p>A scenario of its own model-checks each race ({@link #anAddRacingACarryIsKept}, {@link
 * #aReadRacingACarryIsWhole}), and asserts that the run met adds or reads that a carry overlapped;
 * the random scenarios mix in a plain counter. Every invocation asserts that it carried exactly
 * when its adds reached a mark ({@link #quiescent}). Also promised: a count an add reads back is
 * its own (within the adds done and begun, no other add's) or -1 ({@link #addPair}).
 */
@Param(name = "bytes", gen = IntGen.class, conf = "0:268435455")
public class TallyLincheckTest {
  private static final int COUNTERS = 3; // pair 0 (count, bytes), then plain counter 2
  private static final int COUNT_CARRY = 3;
  private static final long BYTES_CARRY = 1L << 28;

  private static final String CARRIES = "tally: carries";
  private static final String ADDS_OVERLAPPED = "tally: adds a carry overlapped";
  private static final String READS_OVERLAPPED = "tally: reads a carry overlapped";

  private final Tally tally = new Tally(COUNTERS, 1, 1, COUNT_CARRY, BYTES_CARRY);

  /** What the adds begun (counted before they add) and done (after) added, per counter. */
  private final AtomicLongArray begun = new AtomicLongArray(COUNTERS);

  private final AtomicLongArray done = new AtomicLongArray(COUNTERS);
  private final AtomicLongArray drained = new AtomicLongArray(COUNTERS);
  private final Set<Long> countsSeen = ConcurrentHashMap.newKeySet();

  /**
   * Returns whether the count this add read back (when it could) was within the adds done before it
   * and begun by its end, and no other add's.
   */
  @Operation
  public boolean addPair(@Param(name = "bytes") int bytes) {
    GateThread t = GateThread.current();
    long before = done.get(0);
    begun.addAndGet(0, 1);
    begun.addAndGet(1, bytes);
    long n = tally.addPair(t, tally.cell(t), 0, bytes, true);
    done.addAndGet(0, 1);
    done.addAndGet(1, bytes);
    if (n < 0) {
      ModelChecks.count(ADDS_OVERLAPPED, 1);
      return true;
    }
    return n > before && n <= begun.get(0) && countsSeen.add(n);
  }

  /** Returns whether the counter's value this add read back was within the adds done and begun. */
  @Operation
  public boolean add(@Param(name = "bytes") int x) {
    GateThread t = GateThread.current();
    long before = done.get(2);
    begun.addAndGet(2, x);
    long v = tally.add(t, tally.cell(t), 2, x);
    done.addAndGet(2, x);
    return v >= before + x && v <= begun.get(2);
  }

  /**
   * Returns whether the totals read were within the adds done before the read and begun by its end.
   */
  @Operation
  public boolean total() {
    long[] before = values(done);
    long carries = tally.carries();
    long[] total = tally.total();
    return within(total, before, carries);
  }

  /** Returns whether the totals this drain took were within the adds done and begun (as total). */
  @Operation
  public boolean drain() {
    long[] before = values(done);
    long carries = tally.carries();
    long[] d;
    long[] total;
    synchronized (tally) { // the drain and the totals it took, no other drain between
      d = tally.drain();
      total = tally.drained();
    }
    for (int i = 0; i < COUNTERS; i++) {
      drained.addAndGet(i, d[i]);
    }
    return within(total, before, carries);
  }

  /**
   * Returns whether {@code total} is within {@code before}, the adds done before it was read, and
   * the adds begun by now; counts the read as overlapped when the carries moved from {@code
   * carries}.
   */
  private boolean within(long[] total, long[] before, long carries) {
    if (tally.carries() != carries) {
      ModelChecks.count(READS_OVERLAPPED, 1);
    }
    for (int i = 0; i < COUNTERS; i++) {
      if (total[i] < before[i] || total[i] > begun.get(i)) {
        return false;
      }
    }
    return true;
  }

  private static long[] values(AtomicLongArray a) {
    long[] v = new long[COUNTERS];
    for (int i = 0; i < COUNTERS; i++) {
      v[i] = a.get(i);
    }
    return v;
  }

  @Validate
  public void quiescent() {
    long[] d = tally.drain();
    for (int i = 0; i < COUNTERS; i++) {
      if (drained.get(i) + d[i] != done.get(i)) {
        throw new IllegalStateException(
            "counter " + i + ": drained " + (drained.get(i) + d[i]) + ", added " + done.get(i));
      }
    }
    long carries = tally.carries();
    if ((done.get(0) >= COUNT_CARRY || done.get(1) >= BYTES_CARRY) != carries > 0) {
      throw new IllegalStateException(
          carries + " carries after " + done.get(0) + " adds of " + done.get(1) + " bytes");
    }
    ModelChecks.count(CARRIES, carries);
  }

  /**
   * A carry that overwrote the packed word instead of subtracting what it moved would lose an add
   * landing between the carry's read and its write: two adds to a count one short of its mark, each
   * of which may carry while the other lands.
   */
  @Test
  void anAddRacingACarryIsKept() {
    ModelChecks.check(
        TallyLincheckTest.class,
        scenario(
            List.of(op("addPair", 1), op("addPair", 2)),
            List.of(List.of(op("addPair", 3)), List.of(op("addPair", 4)))),
        200,
        CARRIES,
        ADDS_OVERLAPPED);
  }

  /**
   * A reader that took the cell while a carry was under way would read its total short (or past
   * what was added): an add that carries the bytes, against a read and a drain.
   */
  @Test
  void aReadRacingACarryIsWhole() {
    ModelChecks.check(
        TallyLincheckTest.class,
        scenario(
            List.of(op("addPair", (int) BYTES_CARRY - 1)),
            List.of(List.of(op("addPair", 1)), List.of(op("total"), op("drain")))),
        200,
        CARRIES,
        READS_OVERLAPPED);
  }

  private static Actor op(String name, int... args) {
    return ModelChecks.actor(TallyLincheckTest.class, name, args);
  }

  @Test
  void modelChecking() {
    ModelChecks.clear();
    new ModelCheckingOptions()
        .iterations(8)
        .invocationsPerIteration(100)
        .threads(3)
        .actorsPerThread(3)
        .addGuarantee(ModelChecks.outsideAnalysis())
        .check(TallyLincheckTest.class);
    ModelChecks.assertRan(CARRIES);
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
        .addGuarantee(ModelChecks.outsideAnalysis())
        .check(TallyLincheckTest.class);
  }
}
