package com.acme.it;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;

/**
 * A training loop with an unbounded cache, for the agent's child-JVM tests: every sample is read,
 * cached with {@link SampleStore#put} and trained on (a checksum), so at {@code -Xmx256m} 400
 * samples of 1 MiB end in OutOfMemoryError without a budget. Options {@code --key=value}: samples,
 * sample-bytes, threads, kind (heap | direct | direct-slice | poison | echo), evict-at-end,
 * clear-at-end (drops the cache with no release site), shrink-at (sample index where heap_max_usage
 * is set to 0.01 through the agent's MBean), pace-ms (sleep per sample), fixed-rate (with pace-ms:
 * each worker's samples keep to a schedule, one every pace-ms from its start, a late wake-up made
 * up by sleeping less after the next samples, so that the rate is 1000 / pace-ms a second on a
 * loaded machine too, where a sleep per sample oversleeps), ready (print READY and the pid),
 * wait-for-agent-at (at that sample index print PAUSED and wait until the agent's MBean is
 * registered: a test attaches the agent then, so exactly the later samples are decided),
 * await-stdin (before exiting print WAITING and wait for a line on stdin), put-twice (each sample
 * put a second time, the same object), print-site=NAME (at the end, the attributes of the agent's
 * MBean of site NAME: {@code SITE_MBEAN Admissions=... ...}). Prints {@code DELIVERED=}, {@code
 * CACHED=} and the agent's held bytes as the MBean shows them.
 */
public final class CacheApp {
  private static final String MBEAN = "org.flodl.budget:type=Agent";
  private static long mbeanWaitMs = 5000;

  public static void main(String[] args) throws Exception {
    Map<String, String> o = new HashMap<>();
    for (String a : args) {
      int eq = a.indexOf('=');
      o.put(a.substring(2, eq < 0 ? a.length() : eq), eq < 0 ? "true" : a.substring(eq + 1));
    }
    int samples = Integer.parseInt(o.getOrDefault("samples", "400"));
    int sampleBytes = Integer.parseInt(o.getOrDefault("sample-bytes", "1048576"));
    int threads = Integer.parseInt(o.getOrDefault("threads", "1"));
    String kind = o.getOrDefault("kind", "heap");
    int shrinkAt = Integer.parseInt(o.getOrDefault("shrink-at", "-1"));
    long paceMs = Long.parseLong(o.getOrDefault("pace-ms", "0"));
    boolean fixedRate = o.containsKey("fixed-rate");
    mbeanWaitMs = Long.parseLong(o.getOrDefault("mbean-wait-ms", "5000"));
    int waitForAgentAt = Integer.parseInt(o.getOrDefault("wait-for-agent-at", "-1"));
    boolean putTwice = o.containsKey("put-twice");
    if (o.containsKey("ready")) {
      System.out.println("READY " + ProcessHandle.current().pid());
      System.out.flush();
    }
    SampleStore store = new SampleStore();
    AtomicLong checksum = new AtomicLong();
    AtomicInteger delivered = new AtomicInteger();
    AtomicInteger next = new AtomicInteger();
    ByteBuffer rowGroup =
        kind.equals("direct-slice") ? ByteBuffer.allocateDirect(16 * sampleBytes) : null;
    int[] cachedAtShrink = {-1};
    List<Thread> workers = new ArrayList<>();
    Throwable[] failure = {null};
    for (int t = 0; t < threads; t++) {
      Thread w =
          new Thread(
              () -> {
                long slot = System.nanoTime(); // the fixed rate's schedule: the next sample's slot
                int i;
                while ((i = next.getAndIncrement()) < samples) {
                  Object sample;
                  if (kind.equals("direct-slice")) {
                    ByteBuffer dup = rowGroup.duplicate();
                    int at = (i % 16) * sampleBytes;
                    dup.position(at).limit(at + sampleBytes);
                    sample = dup.slice();
                  } else if (kind.equals("direct")) {
                    ByteBuffer b = ByteBuffer.allocateDirect(sampleBytes);
                    b.put(0, (byte) i);
                    sample = b;
                  } else if (kind.equals("poison")) {
                    sample = new Poison(sampleBytes);
                  } else if (kind.equals("echo")) {
                    sample = new Echo(sampleBytes, i);
                  } else {
                    byte[] b = new byte[sampleBytes];
                    b[i % sampleBytes] = (byte) i;
                    sample = b;
                  }
                  if (i == waitForAgentAt) {
                    System.out.println("PAUSED " + i);
                    System.out.flush();
                    System.out.println(awaitAgent() ? "AGENT IS HERE" : "NO AGENT CAME");
                  }
                  if (i == shrinkAt) {
                    synchronized (cachedAtShrink) {
                      cachedAtShrink[0] = store.size();
                      setHeapUsage(0.01);
                    }
                  }
                  store.put(i, sample);
                  if (putTwice) {
                    store.put(i, sample); // the same object again: held already
                  }
                  checksum.addAndGet(train(sample));
                  delivered.incrementAndGet();
                  if (paceMs > 0) {
                    try {
                      if (fixedRate) {
                        slot += paceMs * 1_000_000L;
                        long wait = slot - System.nanoTime();
                        if (wait > 0) {
                          Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                        }
                      } else {
                        Thread.sleep(paceMs);
                      }
                    } catch (InterruptedException e) {
                      return;
                    }
                  }
                }
              },
              "worker-" + t);
      w.setUncaughtExceptionHandler(
          (th, e) -> {
            synchronized (failure) {
              failure[0] = e;
            }
          });
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join();
    }
    if (failure[0] != null) {
      System.err.println("TRAINING FAILED " + failure[0]);
      System.exit(1);
    }
    System.out.println("DELIVERED=" + delivered.get() + " CHECKSUM=" + checksum.get());
    System.out.println("CACHED=" + store.size());
    if (kind.equals("echo")) {
      System.out.println("SIDE=" + Echo.SIDE.size()); // what the pricer put while pricing
    }
    if (cachedAtShrink[0] >= 0) {
      System.out.println("CACHED_AT_SHRINK=" + cachedAtShrink[0]);
    }
    if (o.containsKey("evict-at-end") || o.containsKey("clear-at-end")) {
      System.out.println("HELD_BEFORE_RELEASE=" + held());
    }
    if (o.containsKey("evict-at-end")) {
      for (Object k : store.keys()) {
        store.evict(k);
      }
      System.out.println("HELD_AFTER_EVICT=" + held());
    }
    if (o.containsKey("clear-at-end")) {
      store.clear();
      String h = held();
      for (int i = 0; i < 100 && !h.endsWith("heap=0"); i++) {
        System.gc();
        Thread.sleep(50);
        h = held();
      }
      System.out.println("HELD_AFTER_CLEAR=" + h);
    }
    if (o.containsKey("print-site")) {
      System.out.println("SITE_MBEAN " + site(o.get("print-site")));
    }
    System.out.println("DONE");
    if (o.containsKey("await-stdin")) {
      System.out.println("WAITING");
      System.out.flush();
      new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
    }
  }

  /** Waits up to a minute for the agent's MBean, which it registers once it has started. */
  /** Waits up to a minute for the agent's MBean; returns whether it came. */
  public static boolean awaitAgent() {
    try {
      MBeanServer s = ManagementFactory.getPlatformMBeanServer();
      ObjectName n = new ObjectName(MBEAN);
      for (int i = 0; i < 6000 && !s.isRegistered(n); i++) {
        Thread.sleep(10);
      }
      return s.isRegistered(n);
    } catch (Exception e) {
      return false;
    }
  }

  private static long train(Object sample) {
    if (sample instanceof byte[]) {
      byte[] b = (byte[]) sample;
      return b.length + b[0];
    }
    if (sample instanceof ByteBuffer) {
      ByteBuffer b = (ByteBuffer) sample;
      return b.remaining() + b.get(0);
    }
    return 1;
  }

  /** Returns site {@code name}'s MBean attributes as {@code Key=value} words, or "none". */
  static String site(String name) {
    try {
      MBeanServer s = ManagementFactory.getPlatformMBeanServer();
      ObjectName n = new ObjectName("org.flodl.budget:type=Site,name=" + name);
      if (!s.isRegistered(n)) {
        return "none";
      }
      StringBuilder b = new StringBuilder();
      for (String a :
          new String[] {
            "Kind",
            "Tier",
            "Admissions",
            "AdmittedBytes",
            "Declines",
            "DeclinedBytes",
            "Releases",
            "ReleasedBytes",
            "Collected",
            "HeldBytes",
            "BudgetBytes"
          }) {
        b.append(b.length() == 0 ? "" : " ").append(a).append('=').append(s.getAttribute(n, a));
      }
      return b.toString();
    } catch (Exception e) {
      return "error " + e;
    }
  }

  /** Returns the agent's heap held bytes as "heap=N", or "none" when no agent MBean is there. */
  static String held() {
    try {
      MBeanServer s = ManagementFactory.getPlatformMBeanServer();
      ObjectName n = new ObjectName(MBEAN);
      for (int i = 0; i < mbeanWaitMs / 50 && !s.isRegistered(n); i++) {
        Thread.sleep(50);
      }
      if (!s.isRegistered(n)) {
        return "none";
      }
      TabularData t = (TabularData) s.getAttribute(n, "HeldBytes");
      for (Object row : t.values()) {
        CompositeData c = (CompositeData) row;
        if ("heap".equals(c.get("key"))) {
          return "heap=" + c.get("value");
        }
      }
      return "heap=?";
    } catch (Exception e) {
      return "error " + e;
    }
  }

  private static void setHeapUsage(double v) {
    try {
      MBeanServer s = ManagementFactory.getPlatformMBeanServer();
      ObjectName n = new ObjectName(MBEAN);
      for (int i = 0; i < 100 && !s.isRegistered(n); i++) {
        Thread.sleep(50);
      }
      s.setAttribute(n, new javax.management.Attribute("HeapMaxUsage", v));
      System.out.println("SHRUNK heap_max_usage=" + v);
    } catch (Exception e) {
      System.out.println("SHRINK FAILED " + e);
    }
  }
}
