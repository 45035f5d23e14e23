package com.acme.it;

/**
 * An epoch loop for the prefetch-depth tests: each epoch makes a {@link Feeder} with the requested
 * depth (the constructor is the site), draws its batches (the batch site) and prints the depth the
 * feeder actually got and the depth {@link Feeder#preferredDepth} returned. Options: epochs, depth,
 * batch-bytes, batches.
 */
public final class DepthApp {
  public static void main(String[] args) {
    int epochs = 3;
    int depth = 8;
    int batchBytes = 64 * 1024;
    int batches = 5;
    boolean direct = false;
    for (String a : args) {
      String[] kv = a.substring(2).split("=", 2);
      switch (kv[0]) {
        case "epochs":
          epochs = Integer.parseInt(kv[1]);
          break;
        case "depth":
          depth = Integer.parseInt(kv[1]);
          break;
        case "batch-bytes":
          batchBytes = Integer.parseInt(kv[1]);
          break;
        case "batches":
          batches = Integer.parseInt(kv[1]);
          break;
        case "direct":
          direct = Boolean.parseBoolean(kv[1]);
          break;
        default:
          throw new IllegalArgumentException(a);
      }
    }
    long seen = 0;
    for (int e = 0; e < epochs; e++) {
      Feeder f = new Feeder("epoch-" + e, depth, batchBytes, direct);
      for (int b = 0; b < batches; b++) {
        seen += f.next().size();
      }
      System.out.println(
          "EPOCH" + e + "=" + f.depth() + " PREFERRED" + e + "=" + f.preferredDepth());
    }
    System.out.println("SAMPLES=" + seen);
    System.out.println("DONE");
  }
}
