package org.flodl.budget.agent.record;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.events.Decision;

/**
 * A child JVM's main for {@link BudgetRecordingTest}: starts a {@link BudgetRecording}, commits
 * admissions, then leaves the way its first argument says: {@code return} from main, {@code exit}
 * through {@code System.exit(3)}, or {@code oom} through an uncaught OutOfMemoryError.
 */
public final class RecordingExitMain {
  private RecordingExitMain() {}

  public static void main(String[] args) throws Exception {
    String how = args[0];
    BudgetRecording.start(Path.of(args[1]));
    ConfigurationEvent.register(() -> ConfigurationEvent.emit("record", args[1], "AGENT_ARGS"));
    for (int i = 0; i < 3; i++) {
      CacheAdmissionEvent.decided()
          .site("exit-" + how)
          .tier("heap")
          .valueType("byte[]")
          .logicalBytes(100)
          .storageBytes(100)
          .chargedBytes(100)
          .decision(Decision.ADMIT.name())
          .heldBytes(100L * (i + 1))
          .budgetBytes(1000)
          .availableBytes(5000)
          .emit();
    }
    System.out.println("committed");
    switch (how) {
      case "exit":
        System.exit(3);
        break;
      case "oom":
        List<long[]> hog = new ArrayList<>();
        while (true) {
          hog.add(new long[1 << 20]);
        }
      default:
        break;
    }
  }
}
