package org.flodl.budget.agent.record;

import static org.flodl.budget.events.EventFields.HELD_BYTES;
import static org.flodl.budget.events.EventFields.KEY;
import static org.flodl.budget.events.EventFields.SITE;
import static org.flodl.budget.events.EventFields.VALUE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;
import org.flodl.budget.events.InstrumentedEvent;
import org.flodl.budget.events.MemoryProbeEvent;
import org.flodl.budget.events.PrefetchDepthEvent;
import org.flodl.budget.events.RamBudgetEvent;
import org.flodl.budget.events.ReleaseEvent;
import org.flodl.budget.events.RingSlotsEvent;
import org.flodl.budget.events.SiteSummaryEvent;
import org.flodl.budget.events.StagerSplitEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code record=FILE}: the recording is written at exit however the JVM leaves (main returns,
 * {@code System.exit}, an uncaught OutOfMemoryError), in a child JVM like a user's, with the
 * settings of flodl-budget.jfc.
 */
class BudgetRecordingTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({"return, 0", "exit, 3", "oom, 1"})
  void theRecordingIsWrittenAtExit(String how, int exitCode, @TempDir Path dir) throws Exception {
    Path file = dir.resolve("budget-" + how + ".jfr");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process p =
        new ProcessBuilder(
                java.toString(),
                "-Xmx64m",
                "-cp",
                System.getProperty("java.class.path"),
                RecordingExitMain.class.getName(),
                how,
                file.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), out);
    assertEquals(exitCode, p.exitValue(), out);
    assertTrue(out.contains("committed"), out);
    if (how.equals("oom")) {
      assertTrue(out.contains("java.lang.OutOfMemoryError"), out);
    }
    assertTrue(Files.isRegularFile(file), "no recording written at exit: " + out);
    List<RecordedEvent> events = RecordingFile.readAllEvents(file);
    List<Long> held =
        events.stream()
            .filter(e -> e.getEventType().getName().equals(CacheAdmissionEvent.NAME))
            .map(
                e -> {
                  assertEquals("exit-" + how, e.getString(SITE));
                  return e.getLong(HELD_BYTES);
                })
            .collect(Collectors.toList());
    assertEquals(List.of(100L, 200L, 300L), held);
    Map<String, String> settings =
        events.stream()
            .filter(e -> e.getEventType().getName().equals(ConfigurationEvent.NAME))
            .collect(Collectors.toMap(e -> e.getString(KEY), e -> e.getString(VALUE), (a, b) -> a));
    assertEquals(Map.of("record", file.toString()), settings);
    assertTrue(
        events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.JVMInformation")),
        "flodl-budget.jfc's JDK events are on");
  }

  @Test
  void theSettingsEnableEveryFlodlEventAndTheRecordingIsNamed(@TempDir Path dir) throws Exception {
    try (BudgetRecording r = BudgetRecording.start(dir.resolve("b.jfr"))) {
      Map<String, String> settings = r.recording().getSettings();
      for (String name :
          List.of(
              CacheAdmissionEvent.NAME,
              PrefetchDepthEvent.NAME,
              RingSlotsEvent.NAME,
              RamBudgetEvent.NAME,
              StagerSplitEvent.NAME,
              ReleaseEvent.NAME,
              MemoryProbeEvent.NAME,
              SiteSummaryEvent.NAME,
              InstrumentedEvent.NAME,
              ConfigurationEvent.NAME)) {
        assertEquals("true", settings.get(name + "#enabled"), name);
      }
      assertEquals("1 s", settings.get(MemoryProbeEvent.NAME + "#period"));
      assertEquals(BudgetRecording.NAME, r.recording().getName());
      assertTrue(r.recording().isToDisk());
      assertTrue(r.recording().getDumpOnExit());
      admission().emit();
      r.dump();
      assertTrue(
          RecordingFile.readAllEvents(r.file()).stream()
              .anyMatch(e -> e.getEventType().getName().equals(CacheAdmissionEvent.NAME)));
    }
  }

  @Test
  void unknownSettingsAreAClearError(@TempDir Path dir) {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                BudgetRecording.start(
                    dir.resolve("b.jfr"),
                    new BudgetRecording.Limits("/no-such.jfc", 0, java.time.Duration.ZERO, null),
                    w -> {}));
    assertTrue(e.getMessage().contains("/no-such.jfc"), e.getMessage());
  }

  @Test
  void anUnwritableFileIsAnErrorBeforeAnythingStarts(@TempDir Path dir) {
    Path file = dir.resolve("missing-dir").resolve("b.jfr");
    IOException e = assertThrows(IOException.class, () -> BudgetRecording.start(file));
    assertTrue(e.getMessage().contains("missing-dir"), e.getMessage());
  }

  @Test
  void aFifoOrADeviceIsRefusedWithoutOpeningIt(@TempDir Path dir) throws Exception {
    Path fifo = dir.resolve("pipe.jfr");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).inheritIO().start();
    assertEquals(0, mk.waitFor());
    IOException e = assertThrows(IOException.class, () -> BudgetRecording.checkWritable(fifo));
    assertTrue(e.getMessage().contains("not a regular file"), e.getMessage());
    IOException full =
        assertThrows(IOException.class, () -> BudgetRecording.checkWritable(Path.of("/dev/full")));
    assertTrue(full.getMessage().contains("not a regular file"), full.getMessage());
  }

  @Test
  void aRunningRecordingKeepsItsChunksBesideTheFileAndTheyGoAtClose(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("run.jfr");
    Files.writeString(file, "an old recording");
    Files.createDirectories(dir.resolve("run.jfr" + BudgetRecording.CHUNKS));
    Files.writeString(dir.resolve("run.jfr" + BudgetRecording.CHUNKS).resolve("old.jfr"), "x");
    try (BudgetRecording r = BudgetRecording.start(file)) {
      assertTrue(
          !Files.exists(file) || Files.size(file) == 0,
          "an old recording of that name is gone at start");
      assertFalse(Files.exists(r.chunks().resolve("old.jfr")), "and an older run's chunks");
      admission().emit();
      // The mirror looks once a second on its own thread: a deadline for a loaded machine, not a
      // bound on how soon (it was 10 s).
      long end = System.currentTimeMillis() + 60_000;
      while (chunkFiles(r.chunks()) == 0 && System.currentTimeMillis() < end) {
        Thread.sleep(100);
      }
      assertTrue(chunkFiles(r.chunks()) > 0, "no chunk beside the file within 60 s");
      assertEquals(
          0, r.mirror().written(), "the chunks are linked, not copied, on one file system");
    }
    assertTrue(Files.size(file) > 0, "closed: the recording is written");
    assertTrue(
        RecordingFile.readAllEvents(file).stream()
            .anyMatch(ev -> ev.getEventType().getName().equals(CacheAdmissionEvent.NAME)));
    assertFalse(
        Files.exists(dir.resolve("run.jfr" + BudgetRecording.CHUNKS)), "and its chunks gone");
  }

  /** Returns a one-byte admission at site here, holding 1 of a budget of 2 with 3 available. */
  private static CacheAdmissionEvent admission() {
    return CacheAdmissionEvent.decided()
        .site("here")
        .tier("heap")
        .valueType("byte[]")
        .logicalBytes(1)
        .storageBytes(1)
        .chargedBytes(1)
        .decision(Decision.ADMIT.name())
        .heldBytes(1)
        .budgetBytes(2)
        .availableBytes(3);
  }

  private static long chunkFiles(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    try (var files = Files.list(folder)) {
      return files.filter(f -> f.toString().endsWith(".jfr")).count();
    }
  }
}
