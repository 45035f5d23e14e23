package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.ADMISSIONS;
import static org.flodl.budget.events.EventFields.ADMITTED_BYTES;
import static org.flodl.budget.events.EventFields.DECLINES;
import static org.flodl.budget.events.EventFields.RELEASED_BYTES;
import static org.flodl.budget.events.EventFields.RELEASES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.SiteSummaryEvent;
import org.junit.jupiter.api.Test;

/**
 * A site's MBean ({@code org.flodl.budget:type=Site,name=samples}) as a dashboard's exporter reads
 * it: counters from the agent's start that are the recording's {@code SiteSummary} sums, and the
 * application's own counts; what its values hold goes back to 0 once they are evicted.
 */
class SiteMBeanIT {
  @Test
  void theSitesCountersAreTheRecordingsSummariesAndTheAppsCounts() throws Exception {
    Path sites = Sites.write("site-mbean", Sites.STORE);
    Path file = ChildJvm.WORK.resolve("site-mbean.jfr").toAbsolutePath();
    ChildJvm.Result r =
        ChildJvm.on("site-mbean", Jdk.JDK17)
            .jvm("-Xmx256m")
            .agent("sites=" + sites + ",record=" + file)
            .run(
                "com.acme.it.CacheApp",
                "--samples=400",
                "--sample-bytes=1048576",
                "--evict-at-end",
                "--print-site=samples");
    assertEquals(0, r.exitCode, r.toString());
    Map<String, String> mbean = new HashMap<>();
    String line =
        r.stdout
            .lines()
            .filter(l -> l.startsWith("SITE_MBEAN "))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no SITE_MBEAN line: " + r));
    for (String word : line.substring("SITE_MBEAN ".length()).split(" ")) {
      int eq = word.indexOf('=');
      mbean.put(word.substring(0, eq), word.substring(eq + 1));
    }
    assertEquals("cache-admit", mbean.get("Kind"), line);
    assertEquals("heap", mbean.get("Tier"), line);

    long admissions = 0;
    long declines = 0;
    long releases = 0;
    long admittedBytes = 0;
    long releasedBytes = 0;
    List<RecordedEvent> summaries =
        jdk.jfr.consumer.RecordingFile.readAllEvents(file).stream()
            .filter(e -> e.getEventType().getName().equals(SiteSummaryEvent.NAME))
            .toList();
    for (RecordedEvent e : summaries) {
      admissions += e.getLong(ADMISSIONS);
      declines += e.getLong(DECLINES);
      releases += e.getLong(RELEASES);
      admittedBytes += e.getLong(ADMITTED_BYTES);
      releasedBytes += e.getLong(RELEASED_BYTES);
    }
    assertEquals(400, Long.parseLong(r.value("DELIVERED")));
    assertEquals(400, admissions + declines, "one decision per put");
    assertTrue(admissions > 0 && declines > 0, "the budget binds: " + line);
    assertEquals(admissions, Long.parseLong(mbean.get("Admissions")), line);
    assertEquals(declines, Long.parseLong(mbean.get("Declines")), line);
    assertEquals(releases, Long.parseLong(mbean.get("Releases")), line);
    assertEquals(admittedBytes, Long.parseLong(mbean.get("AdmittedBytes")), line);
    assertEquals(releasedBytes, Long.parseLong(mbean.get("ReleasedBytes")), line);
    assertEquals(admissions, Long.parseLong(r.value("CACHED")), "the app kept what was admitted");
    assertEquals("0", mbean.get("HeldBytes"), "every value evicted: " + line);
    assertTrue(Long.parseLong(mbean.get("BudgetBytes")) > 0, line);
  }
}
