package com.acme.offheap;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import java.util.HashMap;
import java.util.Map;

/**
 * A loader over Netty buffers: each miss reads the sample's row group into a pooled direct buffer
 * of {@code rows × floats} floats, caches the sample's row as a {@code retainedSlice} in a HashMap,
 * releases the row group and trains on the slice. The cache releases what it evicts. At the end it
 * evicts everything and runs Netty's leak detection (collections and allocations, so that
 * ResourceLeakDetector, at PARANOID under {@code -Dio.netty.leakDetection.level=paranoid}, reports
 * any buffer collected unreleased as a "LEAK:" line; {@code leak=N} drops N cached slices
 * unreleased first, the check's control).
 */
public final class NettyLoader {
  private final Map<Integer, ByteBuf> cache = new HashMap<>();
  private final ByteBufAllocator alloc;
  private final int rows;
  private final int floats;
  private long puts;

  NettyLoader(ByteBufAllocator alloc, int rows, int floats) {
    this.alloc = alloc;
    this.rows = rows;
    this.floats = floats;
  }

  /** Reads sample {@code s}'s row group and caches the sample's slice of it. */
  ByteBuf load(int s) {
    int row = s % rows;
    ByteBuf group = alloc.directBuffer(rows * floats * 4);
    try {
      group.writerIndex(rows * floats * 4);
      for (int j = 0; j < floats; j++) {
        group.setFloat((row * floats + j) * 4, Args.value(s, j));
      }
      ByteBuf slice = group.retainedSlice(row * floats * 4, floats * 4);
      cache.put(s, slice);
      puts++;
      return slice;
    } finally {
      group.release();
    }
  }

  double train(ByteBuf sample) {
    double sum = 0;
    for (int j = 0; j < floats; j++) {
      sum += sample.getFloat(j * 4);
    }
    return sum;
  }

  void evictAll() {
    for (Integer k : new java.util.ArrayList<>(cache.keySet())) {
      cache.remove(k).release();
    }
  }

  public static void main(String[] argv) throws Exception {
    // Netty's leak reports through java.util.logging (stderr), whatever SLF4J binding is there.
    InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
    Args a = new Args(argv);
    int samples = a.integer("samples", 400);
    int epochs = a.integer("epochs", 2);
    NettyLoader loader =
        new NettyLoader(PooledByteBufAllocator.DEFAULT, a.integer("rows", 256), a.integer("floats", 256));
    double checksum = 0;
    long hits = 0;
    for (int e = 0; e < epochs; e++) {
      for (int s : Args.order(samples, e)) {
        ByteBuf sample = loader.cache.get(s);
        if (sample == null) {
          sample = loader.load(s);
        } else {
          hits++;
        }
        checksum += loader.train(sample);
      }
      System.out.printf("epoch %d: cached %d%n", e, loader.cache.size());
    }
    // leak=N: the app's own bug, N cached slices dropped unreleased (the leak check's control).
    int leak = a.integer("leak", 0);
    for (Integer k : new java.util.ArrayList<>(loader.cache.keySet())) {
      if (leak-- <= 0) {
        break;
      }
      loader.cache.remove(k);
    }
    loader.evictAll();
    for (int i = 0; i < 5; i++) { // Netty reports a leak when it next tracks a buffer
      System.gc();
      Thread.sleep(100);
      loader.alloc.directBuffer(64).release();
    }
    System.out.printf("checksum=%.3f puts=%d hits=%d%n", checksum, loader.puts, hits);
  }
}
