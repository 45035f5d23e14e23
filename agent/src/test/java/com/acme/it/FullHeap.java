package com.acme.it;

import java.util.ArrayList;
import java.util.List;

/**
 * A JVM whose heap is full: fills it to OutOfMemoryError with ever smaller arrays, keeps them all
 * but a small reserve (1 MiB, or the second argument in KiB: G1 allocates new objects in free
 * regions only, 1 MiB each at {@code -Xmx48m}, so less leaves no room to print READY), prints
 * {@code READY pid} and sleeps (60 s, or the first argument in seconds). Whatever is then loaded
 * into it that allocates more than the reserve runs out of memory.
 */
public final class FullHeap {
  private static final List<Object> HELD = new ArrayList<>(1 << 20);

  private FullHeap() {}

  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 60;
    String ready = "READY " + ProcessHandle.current().pid();
    int reserveKiB = args.length > 1 ? Integer.parseInt(args[1]) : 1024;
    byte[] reserve = new byte[reserveKiB << 10]; // freed after the fill: room to say READY
    for (int size = 1 << 20; size >= 1024; size /= 2) {
      try {
        while (true) {
          HELD.add(new byte[size]);
        }
      } catch (OutOfMemoryError full) {
        // next, smaller
      }
    }
    reserve = null;
    System.out.println(ready);
    System.out.flush();
    Thread.sleep(seconds * 1000);
    System.out.println("HELD " + HELD.size());
  }
}
