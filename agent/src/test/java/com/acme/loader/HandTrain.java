package com.acme.loader;

import java.util.List;
import java.util.zip.CRC32;

/**
 * Trains over a hand-written Dataset and PrefetchLoader (one loader per epoch, queue depth 16):
 * every row of every epoch is delivered. Options: rows, row-bytes, epochs, batch, depth. Prints
 * {@code DELIVERED=}, {@code CHECKSUM=}, {@code CAPACITIES=} (each epoch's queue), {@code CACHED=}
 * and {@code DONE}.
 */
public final class HandTrain {
  private HandTrain() {}

  public static void main(String[] args) throws Exception {
    int rows = 200;
    int rowBytes = 1 << 20;
    int epochs = 3;
    int batch = 4;
    int depth = 16;
    for (String a : args) {
      String[] kv = a.substring(2).split("=", 2);
      switch (kv[0]) {
        case "rows" -> rows = Integer.parseInt(kv[1]);
        case "row-bytes" -> rowBytes = Integer.parseInt(kv[1]);
        case "epochs" -> epochs = Integer.parseInt(kv[1]);
        case "batch" -> batch = Integer.parseInt(kv[1]);
        case "depth" -> depth = Integer.parseInt(kv[1]);
        default -> throw new IllegalArgumentException(a);
      }
    }
    Dataset data = new Dataset(rowBytes);
    long checksum = 0;
    long delivered = 0;
    StringBuilder capacities = new StringBuilder();
    for (int e = 0; e < epochs; e++) {
      int[] order = new int[rows];
      for (int i = 0; i < rows; i++) {
        order[i] = (int) ((i * 7919L + e * 13L) % rows);
      }
      PrefetchLoader loader = new PrefetchLoader(data, order, batch, depth);
      capacities.append(e == 0 ? "" : ",").append(loader.capacity());
      List<byte[]> b;
      while ((b = loader.next()) != null) {
        for (byte[] row : b) {
          CRC32 crc = new CRC32();
          crc.update(row, 0, Math.min(row.length, 8192));
          checksum = checksum * 31 + crc.getValue();
          delivered++;
        }
      }
    }
    System.out.println("DELIVERED=" + delivered);
    System.out.println("CHECKSUM=" + checksum);
    System.out.println("CAPACITIES=" + capacities);
    System.out.println("CACHED=" + data.cached());
    System.out.println("DROPPED=" + data.close(rows));
    System.out.println("DONE");
  }
}
