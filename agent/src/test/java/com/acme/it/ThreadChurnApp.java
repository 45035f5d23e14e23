package com.acme.it;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Threads that decide and end, as a thread-per-task server's do: {@code rounds} rounds of {@code
 * threads} new threads, each putting {@code puts} values of 4 KiB into one {@link HammerStore} and
 * evicting each at once. Prints {@code PUTS= ADMITTED= RELEASED=}, then {@code CHURNED <pid>}, and
 * waits for its standard input to end. Options {@code --key=value}.
 */
public final class ThreadChurnApp {
  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      o.put(a.substring(2, eq), a.substring(eq + 1));
    }
    int rounds = Integer.parseInt(o.getOrDefault("rounds", "100"));
    int threads = Integer.parseInt(o.getOrDefault("threads", "8"));
    int puts = Integer.parseInt(o.getOrDefault("puts", "4"));
    HammerStore store = new HammerStore();
    LongAdder total = new LongAdder();
    LongAdder admitted = new LongAdder();
    LongAdder released = new LongAdder();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    for (int r = 0; r < rounds; r++) {
      List<Thread> round = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        long base = ((long) r * threads + t) * puts;
        Thread w =
            new Thread(
                () -> {
                  for (long k = base; k < base + puts; k++) {
                    total.increment();
                    if (store.put(k, new byte[4096])) {
                      admitted.increment();
                      if (store.evict(k) != null) {
                        released.increment();
                      }
                    }
                  }
                },
                "churn-" + r + "-" + t);
        w.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, e));
        round.add(w);
        w.start();
      }
      for (Thread w : round) {
        w.join();
      }
    }
    if (failure.get() != null) {
      System.err.println("CHURN FAILED " + failure.get());
      System.exit(1);
    }
    System.out.println(
        "PUTS=" + total.sum() + " ADMITTED=" + admitted.sum() + " RELEASED=" + released.sum());
    System.out.println("CHURNED " + ProcessHandle.current().pid());
    System.out.flush();
    while (System.in.read() >= 0) {
      // until the test closes it
    }
  }
}
