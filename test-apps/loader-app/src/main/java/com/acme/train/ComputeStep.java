package com.acme.train;

import com.acme.data.Batch;
import com.acme.data.Samples;

/**
 * The stand-in for a training step: a fixed number of iterations of dependent integer arithmetic over
 * the batch's bytes, folded into a running "model" value that is printed at the end, so the work cannot
 * be optimized away. {@link #calibrate} converts a time per batch into iterations once, at start.
 */
final class ComputeStep {

    private final long itersPerBatch;
    private long model = 1;

    ComputeStep(long itersPerBatch) {
        this.itersPerBatch = itersPerBatch;
    }

    /** Returns the iterations this step runs per batch. */
    long itersPerBatch() {
        return itersPerBatch;
    }

    /** Returns the running model value. */
    long model() {
        return model;
    }

    /** Runs one step over {@code batch}. */
    void run(Batch batch) {
        if (itersPerBatch > 0 && batch.size() > 0) {
            model = burn(batch, itersPerBatch, model);
        }
    }

    /**
     * Returns iterations per batch that take about {@code micros} on this machine, measured now: after a
     * warm-up, the fastest of ~10 ms rounds, run until ten in a row bring no gain or 2 s pass (a round
     * slowed by another process or by a method not yet compiled says nothing of the steady state).
     * On a busy machine prefer a fixed {@code --compute-iters}: the same work in every run.
     */
    static long calibrate(long micros) {
        if (micros <= 0) {
            return 0;
        }
        Batch probe = new Batch(0, new int[] {0}, new Object[] {new byte[64 << 10]});
        long sink = 0;
        long iters = 1 << 14;
        for (int warm = 0; warm < 12; warm++) {
            long t0 = System.nanoTime();
            sink += burn(probe, iters, warm);
            if (System.nanoTime() - t0 < 10_000_000L) {
                iters *= 2;
            }
        }
        double best = 0;
        long deadline = System.nanoTime() + 2_000_000_000L;
        for (int round = 0, flat = 0; flat < 10 && System.nanoTime() < deadline; round++) {
            long t0 = System.nanoTime();
            sink += burn(probe, iters, round);
            double rate = iters * 1000.0 / Math.max(1, System.nanoTime() - t0);
            flat = rate > best * 1.02 ? 0 : flat + 1;
            best = Math.max(best, rate);
        }
        if (sink == 42) {
            System.out.print("");
        }
        return Math.max(1, Math.round(best * micros));
    }

    private static long burn(Batch batch, long iters, long acc) {
        int n = batch.size();
        int s = 0;
        Object sample = batch.get(0);
        int limit = Samples.length(sample) - 8;
        int off = 0;
        for (long it = 0; it < iters; it++) {
            long word = limit >= 0 ? Samples.longAt(sample, off) : Samples.byteAt(sample, 0);
            acc = acc * 6364136223846793005L + (word ^ (acc >>> 29));
            off += 8;
            if (off > limit) {
                off = 0;
                s = s + 1 == n ? 0 : s + 1;
                sample = batch.get(s);
                limit = Samples.length(sample) - 8;
            }
        }
        return acc;
    }
}
