package com.acme.offheap;

import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.util.TransferPair;

/**
 * A loader over Arrow row groups: each sample is one row of {@code floats} floats in a group of
 * {@code rows} rows held in one {@link Float4Vector} (one allocation with its validity buffer).
 * A miss reads the sample's row group, keeps the sample as a slice of it ({@code slice=transfer}:
 * {@link TransferPair#splitAndTransfer}; {@code slice=buf}: {@link ArrowBuf#slice} and a retain)
 * in a HashMap, closes the row group, and trains on the slice. The cache closes what it evicts; at
 * the end it evicts everything and closes the allocator, which throws if anything is outstanding.
 *
 * <p>{@code java com.acme.offheap.ArrowLoader samples=400 epochs=2 rows=1024 floats=256
 * limit=1g slice=transfer}; the allocation manager is Arrow's choice ({@code
 * -Darrow.allocation.manager.type=Unsafe|Netty}).
 */
public final class ArrowLoader {
  private final Map<Integer, AutoCloseable> cache = new HashMap<>();
  private final BufferAllocator allocator;
  private final int rows;
  private final int floats;
  private final boolean transfer;
  private long puts;

  ArrowLoader(BufferAllocator allocator, int rows, int floats, boolean transfer) {
    this.allocator = allocator;
    this.rows = rows;
    this.floats = floats;
    this.transfer = transfer;
  }

  /** Reads sample {@code s}'s row group and caches the sample's slice of it. */
  AutoCloseable load(int s) {
    int row = s % rows;
    AutoCloseable slice;
    try (Float4Vector group = new Float4Vector("group-" + (s / rows), allocator)) {
      group.allocateNew(rows * floats);
      for (int j = 0; j < floats; j++) {
        group.set(row * floats + j, Args.value(s, j));
      }
      group.setValueCount(rows * floats);
      if (transfer) {
        TransferPair pair = group.getTransferPair(allocator);
        pair.splitAndTransfer(row * floats, floats);
        slice = (Float4Vector) pair.getTo();
      } else {
        ArrowBuf b = group.getDataBuffer().slice((long) row * floats * 4, (long) floats * 4);
        b.getReferenceManager().retain();
        slice = b;
      }
    }
    cache.put(s, slice);
    puts++;
    return slice;
  }

  double train(AutoCloseable sample) {
    double sum = 0;
    if (sample instanceof Float4Vector v) {
      for (int j = 0; j < floats; j++) {
        sum += v.get(j);
      }
    } else {
      ArrowBuf b = (ArrowBuf) sample;
      for (int j = 0; j < floats; j++) {
        sum += b.getFloat(j * 4L);
      }
    }
    return sum;
  }

  void evictAll() throws Exception {
    for (Integer k : new java.util.ArrayList<>(cache.keySet())) {
      cache.remove(k).close();
    }
  }

  public static void main(String[] argv) throws Exception {
    Args a = new Args(argv);
    int samples = a.integer("samples", 400);
    int epochs = a.integer("epochs", 2);
    long limit = a.bytes("limit", 1L << 30);
    RootAllocator allocator = new RootAllocator(limit);
    ArrowLoader loader =
        new ArrowLoader(
            allocator,
            a.integer("rows", 1024),
            a.integer("floats", 256),
            !a.text("slice", "transfer").equals("buf"));
    double checksum = 0;
    long hits = 0;
    for (int e = 0; e < epochs; e++) {
      for (int s : Args.order(samples, e)) {
        AutoCloseable sample = loader.cache.get(s);
        if (sample == null) {
          sample = loader.load(s);
        } else {
          hits++;
        }
        checksum += loader.train(sample);
      }
      System.out.printf(
          "epoch %d: cached %d, allocated %d bytes of %d%n",
          e, loader.cache.size(), allocator.getAllocatedMemory(), allocator.getLimit());
    }
    loader.evictAll();
    long outstanding = allocator.getAllocatedMemory();
    allocator.close(); // throws when anything is outstanding (Arrow's own leak check)
    System.out.printf(
        "checksum=%.3f puts=%d hits=%d outstanding-before-close=%d closed=true%n",
        checksum, loader.puts, hits, outstanding);
  }
}
