package org.flodl.budget.probes;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.flodl.budget.policy.BudgetPolicy;

/**
 * The child JVM of the heap and direct probe tests: prints what the probes see as {@code key=value}
 * lines while it fills and drops a cache.
 */
public final class ProbeChildMain {
  private ProbeChildMain() {}

  /** Runs the scenario {@code args[0]}: {@code heap}, {@code direct} or {@code nojna}. */
  public static void main(String[] args) {
    switch (args[0]) {
      case "heap" -> heap();
      case "direct" -> direct();
      default -> withoutJna();
    }
  }

  private static void heap() {
    HeapProbe probe = new HeapProbe();
    print("start", probe.read());
    System.out.println("start.collections=" + collections());
    System.gc();
    print("baseline", probe.read());
    // 96 MiB in 64 KiB arrays (small enough not to be humongous in G1's 1 MiB regions).
    byte[][] cache = new byte[96 * 16][];
    for (int i = 0; i < cache.length; i++) {
      cache[i] = new byte[64 << 10];
    }
    System.gc();
    print("cached", probe.read());
    System.out.println("cache.length=" + cache.length);
    cache = null;
    System.gc();
    print("dropped", probe.read());
  }

  private static void print(String label, HeapMemory m) {
    System.out.println(label + ".max=" + m.maxBytes());
    System.out.println(label + ".live=" + m.liveBytes());
    System.out.println(label + ".used=" + m.usedBytes());
    System.out.println(label + ".afterGc=" + m.afterGc());
    System.out.println(label + ".available=" + m.availableBytes());
    System.out.println(
        label + ".budget=" + BudgetPolicy.anchoredRamBudget(m.availableBytes(), 0, 0.50));
  }

  private static long collections() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += gc.getCollectionCount();
    }
    return n;
  }

  private static void direct() {
    DirectMemoryProbe probe = new DirectMemoryProbe();
    HostMemory host = HostMemoryProbes.fromSpec("auto").read();
    DirectMemory before = probe.read(host.availableBytes());
    ByteBuffer held = ByteBuffer.allocateDirect(16 << 20);
    DirectMemory after = probe.read(host.availableBytes());
    DirectMemory tightHost = probe.read(8 << 20);
    System.out.println("direct.max=" + after.maxBytes());
    System.out.println("before.used=" + before.usedBytes());
    System.out.println("before.available=" + before.availableBytes());
    System.out.println("after.used=" + after.usedBytes());
    System.out.println("after.available=" + after.availableBytes());
    System.out.println(
        "after.budget=" + BudgetPolicy.anchoredRamBudget(after.availableBytes(), 0, 0.50));
    System.out.println("tightHost.available=" + tightHost.availableBytes());
    System.out.println("held.capacity=" + held.capacity());
  }

  private static void withoutJna() {
    System.out.println(
        "jna.visible="
            + (ProbeChildMain.class.getClassLoader().getResource("com/sun/jna/Native.class")
                != null));
    try (MemoryProbes probes =
        MemoryProbes.fromSpecs("auto", "auto", MemoryProbes.DEFAULT_INTERVAL, null)) {
      MemorySnapshot s = probes.snapshot();
      System.out.println("host.available=" + s.host().availableBytes());
      System.out.println("heap.available=" + s.heap().availableBytes());
      VramReading r = probes.vram(0);
      System.out.println("vram.used=" + r.usedBytes());
      System.out.println("vram.total=" + r.totalBytes());
      System.out.println("vram.failure=" + r.failure());
    }
  }
}
