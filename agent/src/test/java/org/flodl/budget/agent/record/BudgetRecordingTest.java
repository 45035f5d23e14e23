package org.flodl.budget.agent.record;

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
import org.flodl.budget.events.MemoryProbeEvent;
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
                java.toString(), "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                RecordingExitMain.class.getName(), how, file.toString())
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
            .map(e -> {
              assertEquals("exit-" + how, e.getString("site"));
              return e.getLong("heldBytes");
            })
            .collect(Collectors.toList());
    assertEquals(List.of(100L, 200L, 300L), held);
    Map<String, String> settings =
        events.stream()
            .filter(e -> e.getEventType().getName().equals(ConfigurationEvent.NAME))
            .collect(Collectors.toMap(e -> e.getString("key"), e -> e.getString("value"), (a, b) -> a));
    assertEquals(Map.of("record", file.toString()), settings);
    assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals("jdk.JVMInformation")),
        "flodl-budget.jfc's JDK events are on");
  }

  @Test
  void theSettingsEnableEveryFlodlEventAndTheRecordingIsNamed(@TempDir Path dir) throws Exception {
    try (BudgetRecording r = BudgetRecording.start(dir.resolve("b.jfr"))) {
      Map<String, String> settings = r.recording().getSettings();
      for (String name :
          List.of("flodl.budget.CacheAdmission", "flodl.budget.PrefetchDepth",
              "flodl.budget.RingSlots", "flodl.budget.RamBudget", "flodl.budget.StagerSplit",
              "flodl.budget.Release", "flodl.budget.MemoryProbe", "flodl.budget.SiteSummary",
              "flodl.agent.Instrumented", "flodl.agent.Configuration")) {
        assertEquals("true", settings.get(name + "#enabled"), name);
      }
      assertEquals("1 s", settings.get(MemoryProbeEvent.NAME + "#period"));
      assertEquals(BudgetRecording.NAME, r.recording().getName());
      assertTrue(r.recording().isToDisk());
      assertTrue(r.recording().getDumpOnExit());
      CacheAdmissionEvent.emit("here", "heap", "byte[]", 1, 1, 1, false, false, "ADMIT", 1, 2, 3);
      r.dump();
      assertTrue(RecordingFile.readAllEvents(r.file()).stream()
          .anyMatch(e -> e.getEventType().getName().equals(CacheAdmissionEvent.NAME)));
    }
  }

  @Test
  void unknownSettingsAreAClearError(@TempDir Path dir) {
    IOException e = assertThrows(IOException.class,
        () -> BudgetRecording.start(dir.resolve("b.jfr"), "/no-such.jfc", w -> {}));
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
  void aRunningRecordingIsOnDiskAsFilePartAndGoneAtClose(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("run.jfr");
    Files.writeString(file, "an old recording");
    try (BudgetRecording r = BudgetRecording.start(file, BudgetRecording.DEFAULT_SETTINGS,
        w -> {})) {
      assertTrue(!Files.exists(file) || Files.size(file) == 0,
          "an old recording of that name is gone at start");
      CacheAdmissionEvent.emit("here", "heap", "byte[]", 1, 1, 1, false, false, "ADMIT", 1, 2, 3);
      long end = System.currentTimeMillis() + 10_000;
      while (!Files.exists(r.part()) && System.currentTimeMillis() < end) {
        Thread.sleep(100);
      }
      assertTrue(Files.exists(r.part()), "no snapshot within 10 s");
      assertTrue(RecordingFile.readAllEvents(r.part()).stream()
          .anyMatch(ev -> ev.getEventType().getName().equals(CacheAdmissionEvent.NAME)));
    }
    assertTrue(Files.size(file) > 0, "closed: the recording is written");
    assertFalse(Files.exists(dir.resolve("run.jfr" + BudgetRecording.PART)), "and its snapshot gone");
  }
}
