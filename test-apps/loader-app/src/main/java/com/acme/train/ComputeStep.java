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

    /** Returns iterations per batch that take about {@code micros} on this machine, measured now. */
    static long calibrate(long micros) {
        if (micros <= 0) {
            return 0;
        }
        Batch probe = new Batch(0, new int[] {0}, new Object[] {new byte[64 << 10]});
        long iters = 1 << 16;
        long sink = 0;
        double perMicro = 0;
        for (int round = 0; round < 6; round++) {
            long t0 = System.nanoTime();
            sink += burn(probe, iters, round);
            long nanos = Math.max(1, System.nanoTime() - t0);
            perMicro = iters * 1000.0 / nanos;
            if (nanos < 20_000_000L) {
                iters *= 2;
            }
        }
        if (sink == 42) {
            System.out.print("");
        }
        return Math.max(1, Math.round(perMicro * micros));
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
