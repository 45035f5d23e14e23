package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.ALREADY_HELD;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.policy.SpinWait;
import org.flodl.budget.share.HostShareRegistry;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A loader with one virtual thread per sample ({@code com.acme.it.VirtualLoaderApp}) on the newest
 * JDK the build finds, and its platform-pool variant: under the agent it completes as it does
 * without it, with the same checksum; the recording's {@code SiteSummary} counts are the app's own
 * counts exactly (every put decided once, every kept sample an admission, every eviction a
 * release); the heap after eviction does not grow with the threads that have decided; and a heap
 * that fits the job's cache only without a budget still completes, the budget's declines counted.
 */
@Tag("slow") // a million virtual threads, and a tight heap
class VirtualThreadsIT {
  private static final String APP = "com.acme.it.VirtualLoaderApp";

  /** The checksum of the million-thread run without the agent, once both cases have it. */
  private static String millionChecksum;

  static final String SITES =
      "site.samples.kind = cache-admit\n"
          + "site.samples.in = com.acme.it.VirtualLoaderApp$SampleCache\n"
          + "site.samples.method = java.util.Map#put(java.lang.Object,java.lang.Object)\n"
          + "site.samples.value = 1\n"
          + "site.samples.release = java.util.Map#remove(java.lang.Object)\n";

  /**
   * A million short-lived deciding threads: four epochs of 250,000 virtual threads, each loading
   * one 1 KiB sample. Nothing is declined at a roomy heap, every count is exact, and the heap after
   * each epoch's eviction stays where the first left it, whether the rank joined the host-share
   * registry or could not (then nothing drains a rate of its own, which must not grow either).
   */
  @ParameterizedTest(name = "registry joined: {0}")
  @ValueSource(booleans = {true, false})
  void aMillionVirtualThreadsDecideWithExactCountsAndAFlatHeap(boolean joined) throws Exception {
    String[] args = {"--threads=virtual", "--samples=250000", "--epochs=4", "--bytes=1024"};
    if (millionChecksum == null) { // the run without the agent is the same for both cases
      millionChecksum = withoutAgent("vthreads-plain", "-Xmx2g", args).value("CHECKSUM");
    }
    String name = "vthreads-million-" + (joined ? "joined" : "alone");
    Path file = recording(name);
    Path root = ChildJvm.WORK.resolve(name + "-registry").toAbsolutePath();
    java.nio.file.Files.createDirectories(root);
    // A file where the registry's folder would be, and where its fallback under ~/.cache would
    // be: the rank cannot join, and says so.
    Path registry = joined ? root : java.nio.file.Files.write(root.resolve("a-file"), new byte[0]);
    ChildJvm.Result r =
        ChildJvm.on(name, Jdk.JDK25)
            .jvm(
                "-Xmx2g",
                "-D" + HostShareRegistry.ROOT_PROPERTY + "=" + registry,
                "-Duser.home=" + (joined ? System.getProperty("user.home") : registry))
            .agent("sites=" + Sites.write("vthreads", SITES) + ",record=" + file)
            .timeout(600)
            .run(APP, args);
    assertEquals(0, r.exitCode, r.toString());
    assertEquals(
        !joined, r.stderr.contains("this rank budgets the whole host"), "joined: " + r.stderr);
    assertEquals(millionChecksum, r.value("CHECKSUM"), "the samples the job saw");
    assertEquals("1000000", r.value("PUTS"), r.toString());
    assertEquals("1000000", r.value("KEPT"), "nothing declined at a roomy heap: " + r);
    assertEquals("1000000", r.value("EVICTED"));
    Map<String, Long> s = ExportersIT.summaries(file, "samples");
    assertEquals(1_000_000L, s.get(ADMISSIONS) + s.get(DECLINES) + s.get(ALREADY_HELD), "" + s);
    assertEquals(1_000_000L, s.get(ADMISSIONS), "" + s);
    assertEquals(1_000_000L, s.get(RELEASES), "" + s);
    assertEquals(s.get(ADMITTED_BYTES), s.get(RELEASED_BYTES), "each byte released once: " + s);
    List<Long> heap = perEpoch(r, "HEAP_AFTER");
    // The first epoch's figure already holds what the agent keeps for good (its classes, the
    // probes' beans, the recorder's buffers); a million threads' state would be tens of MB more.
    assertTrue(
        heap.get(3) <= heap.get(0) + 8 * 1024 * 1024,
        "the heap after eviction grew with the threads that decided: " + heap + "\n" + r);
  }

  /**
   * The platform-pool variant (eight threads, the loader as it was written before JDK 21): the same
   * checksum, the same exact counts.
   */
  @Test
  void eightPlatformThreadsKeepExactCounts() throws Exception {
    String[] args = {"--threads=8", "--samples=100000", "--epochs=2", "--bytes=4096"};
    ChildJvm.Result plain = withoutAgent("pool-plain", "-Xmx2g", args);
    Path file = recording("pool-agent");
    ChildJvm.Result r = withAgent("pool-agent", "-Xmx2g", file, args);
    assertEquals(plain.value("CHECKSUM"), r.value("CHECKSUM"));
    assertEquals("200000", r.value("KEPT"), r.toString());
    Map<String, Long> s = ExportersIT.summaries(file, "samples");
    assertEquals(200_000L, s.get(ADMISSIONS), "" + s);
    assertEquals(200_000L, s.get(RELEASES), "" + s);
    assertEquals(s.get(ADMITTED_BYTES), s.get(RELEASED_BYTES), "" + s);
  }

  /**
   * A heap that holds the job's cache without a budget ({@code -Xmx1g}, 200,000 samples of 4 KiB a
   * epoch: about 800 MB) completes under the agent as it does without it: the budget declines part
   * of each epoch, and every decline is the app's put that was not kept. Each reservation there
   * meets the budget and takes the ledger's grants lock, a spin lock: a virtual thread waiting for
   * it keeps its carrier for {@value SpinWait#VIRTUAL_SPIN_MILLIS} ms before it yields (and lets
   * the next sample's thread into {@code put}), so the threads inside the cache's {@code put} at
   * once in the second epoch stay within what those spins allow in the time the longest stay inside
   * took, however the machine is loaded (see {@link #threadsInsidePutAtOnceAtMost}). The first
   * epoch is not bounded so: its first decisions load classes and make the engine's pricer, and the
   * JDK's own class values and a new map's table let waiters leave their carriers at once (see
   * docs/BENCHMARKS.md, "Threads inside put at once").
   */
  @Test
  void aTightHeapCompletesWithTheBudgetsDeclinesCountedExactly() throws Exception {
    String[] args = {
      "--threads=virtual",
      "--samples=200000",
      "--epochs=2",
      "--bytes=4096",
      "--watch-put=true",
      // Room for every sample from the start: no two samples share a bucket and the table never
      // grows, so no put waits on another's bucket lock; what waits inside put is the agent's.
      "--capacity=200000"
    };
    ChildJvm.Result plain = withoutAgent("vthreads-tight-plain", "-Xmx1g", args); // it fits
    Path file = recording("vthreads-tight");
    ChildJvm.Result r = withAgent("vthreads-tight", "-Xmx1g", file, args);
    assertEquals(plain.value("CHECKSUM"), r.value("CHECKSUM"), "declined samples still delivered");
    long puts = Long.parseLong(r.value("PUTS"));
    long kept = Long.parseLong(r.value("KEPT"));
    assertEquals(400_000L, puts, r.toString());
    assertTrue(kept < puts, "the heap budget declined part of the cache: " + r);
    Map<String, Long> s = ExportersIT.summaries(file, "samples");
    assertEquals(kept, (long) s.get(ADMISSIONS), "" + s);
    assertEquals(puts - kept, (long) s.get(DECLINES), "" + s);
    assertEquals(kept, (long) s.get(RELEASES), "" + s);
    List<Long> inPut = perEpoch(r, "MOST_IN_PUT");
    List<Long> longest = perEpoch(r, "LONGEST_IN_PUT_US");
    assertEquals(2, inPut.size(), r.toString());
    assertEquals(2, longest.size(), r.toString());
    long carriers = Long.parseLong(r.value("CARRIERS"));
    long most = threadsInsidePutAtOnceAtMost(carriers, longest.get(1));
    assertTrue(
        inPut.get(1) <= most,
        "threads inside put at once in epoch 1: "
            + inPut.get(1)
            + ", where "
            + carriers
            + " carriers and spins of "
            + SpinWait.VIRTUAL_SPIN_MILLIS
            + " ms allow at most "
            + most
            + " in the longest stay inside put, "
            + longest.get(1)
            + " us (epoch 0: "
            + inPut.get(0)
            + " in "
            + longest.get(0)
            + " us; without the agent: "
            + perEpoch(plain, "MOST_IN_PUT")
            + ")\n"
            + r);
  }

  /**
   * Returns the most virtual threads that can be inside a put at once where the only waits inside
   * it are the agent's spin waits, on {@code carriers} carriers, when no thread stayed inside
   * longer than {@code longestMicros}. The bound follows from the design, not from a reading of
   * another run, and holds at any load: a thread inside put is either on a carrier (at most {@code
   * carriers} of them), or left its carrier by yielding in {@link SpinWait#pause}, which a virtual
   * thread does only once it has spun on a carrier for more than {@value
   * SpinWait#VIRTUAL_SPIN_MILLIS} ms of wall-clock time (a collection's pause or a descheduled
   * carrier included) since it entered put. At any moment every thread inside entered no earlier
   * than the oldest one there, at most {@code longestMicros} before; each that yielded spun a
   * stretch of its own in that time, and one carrier spins one thread's stretch at a time, so each
   * carrier gives at most {@code longestMicros} / {@value SpinWait#VIRTUAL_SPIN_MILLIS} ms of them.
   * A slower machine makes the stays longer, and the bound with them; a wait that left its carrier
   * at once (a monitor, a park, a yield without the spin) lets thousands in within milliseconds.
   */
  static long threadsInsidePutAtOnceAtMost(long carriers, long longestMicros) {
    return carriers * (1 + longestMicros / (SpinWait.VIRTUAL_SPIN_MILLIS * 1_000));
  }

  /** Runs the app without the agent on the newest JDK; it must complete. */
  private static ChildJvm.Result withoutAgent(String name, String heap, String... args)
      throws Exception {
    ChildJvm.Result r = ChildJvm.on(name, Jdk.JDK25).jvm(heap).timeout(600).run(APP, args);
    assertEquals(0, r.exitCode, "the job completes without the agent: " + r);
    return r;
  }

  /** Runs the app under the agent, recording to {@code file}; it must complete. */
  private static ChildJvm.Result withAgent(String name, String heap, Path file, String... args)
      throws Exception {
    ChildJvm.Result r =
        ChildJvm.on(name, Jdk.JDK25)
            .jvm(heap)
            .agent("sites=" + Sites.write("vthreads", SITES) + ",record=" + file)
            .timeout(600)
            .run(APP, args);
    assertEquals(0, r.exitCode, r.toString());
    return r;
  }

  /** Returns the path of a {@code record=} file named after {@code name}, none there yet. */
  private static Path recording(String name) throws Exception {
    Path file = ChildJvm.WORK.resolve(name + ".jfr").toAbsolutePath();
    java.nio.file.Files.deleteIfExists(file);
    return file;
  }

  /**
   * Returns what the app printed as {@code field} for each epoch: {@code HEAP_AFTER} (the heap used
   * after the epoch's eviction and a collection), {@code MOST_IN_PUT} (the most threads inside the
   * cache's {@code put} at once), {@code LONGEST_IN_PUT_US} (the longest one stayed inside it).
   */
  private static List<Long> perEpoch(ChildJvm.Result r, String field) {
    List<Long> values = new ArrayList<>();
    for (String line : r.stdout.split("\n")) {
      int at = line.indexOf(" " + field + "=");
      if (line.startsWith("EPOCH ") && at > 0) {
        values.add(Long.parseLong(line.substring(at + field.length() + 2).split(" ")[0]));
      }
    }
    return values;
  }
}
