package com.acme.loader;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A hand-written prefetching loader: a thread fills a bounded queue of batches ahead of training.
 */
public final class PrefetchLoader {
  private static final List<byte[]> END = new ArrayList<>();
  private final BlockingQueue<List<byte[]>> queue;
  private final int capacity;
  private final Thread producer;
  private volatile Throwable failure;

  public PrefetchLoader(Dataset dataset, int[] order, int batchSize, int depth) {
    this.queue = new ArrayBlockingQueue<>(depth);
    this.capacity = queue.remainingCapacity();
    this.producer =
        new Thread(
            () -> {
              try {
                for (int at = 0; at < order.length; at += batchSize) {
                  List<byte[]> batch = new ArrayList<>();
                  for (int i = at; i < Math.min(order.length, at + batchSize); i++) {
                    batch.add(dataset.get(order[i]));
                  }
                  queue.put(batch);
                }
                queue.put(END);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } catch (Throwable t) {
                failure = t; // an OutOfMemoryError while decoding: training must hear of it
                queue.clear();
                queue.offer(END);
              }
            },
            "prefetch");
    producer.setDaemon(true);
    producer.start();
  }

  /** Returns the queue's capacity as built. */
  public int capacity() {
    return capacity;
  }

  /** Returns the next batch, or null at the end of the epoch; rethrows what the producer met. */
  public List<byte[]> next() throws InterruptedException {
    List<byte[]> b = queue.take();
    if (b == END && failure != null) {
      throw new IllegalStateException("prefetching failed", failure);
    }
    return b == END ? null : b;
  }
}
