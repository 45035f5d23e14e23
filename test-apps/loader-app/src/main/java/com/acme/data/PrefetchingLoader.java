package com.acme.data;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One epoch's batches, read ahead by a worker thread into a bounded queue of {@code depth} batches; a
 * depth of 0 runs synchronously (no worker: {@link #next} reads the batch on the calling thread). Each
 * batch read waits {@code readLatencyMicros} first, the simulated storage round trip, then reads its
 * samples from the source in {@code order}. A failure in the worker, an {@code OutOfMemoryError}
 * included, is rethrown by the {@link #next} that would have returned the batch.
 */
public final class PrefetchingLoader implements AutoCloseable {

    private static final Object END = new Object();
    private static final Object FAILED = new Object();

    private final SampleSource source;
    private final int[] order;
    private final int batchSize;
    private final int depth;
    private final long readLatencyMicros;
    private final int batches;
    private final BlockingQueue<Object> queue;
    private final Thread worker;
    private volatile Throwable failure;
    private int nextBatch;
    private boolean finished;

    /**
     * Creates the loader of one epoch: the samples of {@code source} in {@code order}, in batches of
     * {@code batchSize} (the last may be short), read ahead up to {@code depth} batches (0: synchronous),
     * each batch read taking {@code readLatencyMicros} of latency. The worker starts at once.
     */
    public PrefetchingLoader(SampleSource source, int[] order, int batchSize, int depth, long readLatencyMicros) {
        if (batchSize <= 0 || depth < 0 || readLatencyMicros < 0) {
            throw new IllegalArgumentException("batchSize > 0, depth >= 0, readLatencyMicros >= 0 required, got "
                    + batchSize + ", " + depth + ", " + readLatencyMicros);
        }
        this.source = source;
        this.order = order.clone();
        this.batchSize = batchSize;
        this.depth = depth;
        this.readLatencyMicros = readLatencyMicros;
        this.batches = (order.length + batchSize - 1) / batchSize;
        if (depth == 0) {
            this.queue = null;
            this.worker = null;
        } else {
            this.queue = new ArrayBlockingQueue<>(depth);
            this.worker = new Thread(this::fill, "prefetch-worker");
            this.worker.setDaemon(true);
            this.worker.start();
        }
    }

    /** Returns the depth this loader runs with (0: synchronous). */
    public int depth() {
        return depth;
    }

    /** Returns the number of batches in the epoch. */
    public int batches() {
        return batches;
    }

    /** Returns the next batch of the epoch, or null once every batch was returned. */
    public Batch next() {
        if (finished) {
            return null;
        }
        if (queue == null) {
            if (nextBatch == batches) {
                finished = true;
                return null;
            }
            return read(nextBatch++);
        }
        Object item = null;
        try {
            while (item == null) {
                item = queue.poll(50, TimeUnit.MILLISECONDS);
                if (item == null && !worker.isAlive() && queue.isEmpty()) {
                    item = failure != null ? FAILED : END;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for a batch", e);
        }
        if (item == END && failure == null) {
            finished = true;
            return null;
        }
        if (item == FAILED || item == END) {
            finished = true;
            Throwable cause = failure;
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new IllegalStateException("prefetch worker failed", cause);
        }
        nextBatch++;
        return (Batch) item;
    }

    /** Stops the worker if it is still reading ahead. */
    @Override
    public void close() {
        finished = true;
        if (worker != null) {
            worker.interrupt();
        }
    }

    /** The worker's loop: reads every batch into the queue, then the end marker (or the failure). */
    private void fill() {
        try {
            for (int b = 0; b < batches; b++) {
                queue.put(read(b));
            }
            queue.put(END);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
            try {
                queue.put(FAILED);
            } catch (Throwable ignored) {
                // next() sees the worker gone and the failure recorded
            }
        }
    }

    /** Returns batch {@code b}, read from the source after the read latency. */
    private Batch read(int b) {
        if (readLatencyMicros > 0) {
            sleepMicros(readLatencyMicros);
        }
        int from = b * batchSize;
        int n = Math.min(batchSize, order.length - from);
        int[] ids = new int[n];
        Object[] samples = new Object[n];
        for (int i = 0; i < n; i++) {
            ids[i] = order[from + i];
            samples[i] = source.read(ids[i]);
        }
        return new Batch(b, ids, samples);
    }

    /** Waits {@code micros} microseconds without spinning. */
    private static void sleepMicros(long micros) {
        long deadline = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(micros);
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
