package com.acme.it;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * A cache at the machine's full rate, for the recording tests and benchmarks: {@code threads}
 * threads each put values of {@code value-bytes} into one {@link HammerStore} and evict the oldest
 * once they keep {@code window} of them (or when a put was refused), for {@code seconds} (or {@code
 * puts} puts a thread). Counts what the application saw: puts, how many the store kept (put
 * returned true) or skipped (false, a decline), and evictions that returned a value (a release).
 * Prints {@code AT=<epoch ms> SO_FAR=<puts>} every {@code beat-ms} while it runs, then {@code PUTS=
 * ADMITTED= DECLINED= RELEASED=} and {@code DONE}. Options {@code --key=value}.
 */
public final class HammerApp {
  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      o.put(a.substring(2, eq < 0 ? a.length() : eq), eq < 0 ? "true" : a.substring(eq + 1));
    }
    int threads = Integer.parseInt(o.getOrDefault("threads", "2"));
    double seconds = Double.parseDouble(o.getOrDefault("seconds", "10"));
    long putsPerThread = Long.parseLong(o.getOrDefault("puts", "0"));
    int valueBytes = Integer.parseInt(o.getOrDefault("value-bytes", "16384"));
    int window = Integer.parseInt(o.getOrDefault("window", "64"));
    long beatMs = Long.parseLong(o.getOrDefault("beat-ms", "250"));
    HammerStore store = new HammerStore();
    LongAdder puts = new LongAdder();
    LongAdder admitted = new LongAdder();
    LongAdder declined = new LongAdder();
    LongAdder released = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    long deadline = System.nanoTime() + (long) (seconds * 1e9);
    List<Thread> workers = new ArrayList<>();
    Throwable[] failure = {null};
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread w =
          new Thread(
              () -> {
                ArrayDeque<Long> kept = new ArrayDeque<>();
                long n = 0;
                while (!stop.get()) {
                  if (putsPerThread > 0
                      ? n >= putsPerThread
                      : (n & 255) == 0 && System.nanoTime() > deadline) {
                    break;
                  }
                  long key = ((long) id << 40) | n++;
                  byte[] value = new byte[valueBytes];
                  value[(int) (key % valueBytes)] = (byte) key;
                  boolean kept1 = store.put(key, value);
                  if (kept1) {
                    admitted.increment();
                    kept.add(key);
                  } else {
                    declined.increment();
                  }
                  puts.increment();
                  // past the window, or refused for want of room: the oldest goes
                  if ((kept.size() > window || !kept1 && !kept.isEmpty())
                      && store.evict(kept.poll()) != null) {
                    released.increment();
                  }
                }
                for (Long k : kept) {
                  if (store.evict(k) != null) {
                    released.increment();
                  }
                }
              },
              "hammer-" + t);
      w.setUncaughtExceptionHandler(
          (th, e) -> {
            synchronized (failure) {
              failure[0] = e;
            }
          });
      workers.add(w);
      w.start();
    }
    System.out.println("READY " + ProcessHandle.current().pid());
    System.out.flush();
    while (workers.stream().anyMatch(Thread::isAlive)) {
      System.out.println("AT=" + System.currentTimeMillis() + " SO_FAR=" + puts.sum());
      System.out.flush();
      for (Thread w : workers) {
        w.join(beatMs);
        break;
      }
    }
    for (Thread w : workers) {
      w.join();
    }
    if (failure[0] != null) {
      System.err.println("HAMMER FAILED " + failure[0]);
      System.exit(1);
    }
    System.out.println(
        "PUTS="
            + puts.sum()
            + " ADMITTED="
            + admitted.sum()
            + " DECLINED="
            + declined.sum()
            + " RELEASED="
            + released.sum()
            + " KEPT="
            + store.size());
    System.out.println("DONE");
  }
}
