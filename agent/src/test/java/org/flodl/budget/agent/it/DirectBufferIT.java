package org.flodl.budget.agent.it;

import static org.flodl.budget.events.EventFields.DECISION;
import static org.flodl.budget.events.EventFields.LOGICAL_BYTES;
import static org.flodl.budget.events.EventFields.MATERIALIZED;
import static org.flodl.budget.events.EventFields.STORAGE_BYTES;
import static org.flodl.budget.events.EventFields.TIER;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import jdk.jfr.consumer.RecordedEvent;
import org.flodl.budget.agent.it.ChildJvm.Jdk;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.events.Decision;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The {@code sun.nio.ch} export the direct-buffer pricer needs is granted, from the packaged jar,
 * to the module that runs the pricer (the boot loader's, where the jar sits): a 1 MiB slice of a 16
 * MiB direct row group is priced at its owner's 16 MiB and materialized, which the pricer can only
 * see with the export. No {@code --add-exports} on the command line.
 */
class DirectBufferIT {

  @ParameterizedTest
  @EnumSource(Jdk.class)
  void directSlicesArePricedByTheirOwnerAndCopied(Jdk jdk) throws Exception {
    Path sites = Sites.write("store", Sites.STORE);
    ChildJvm.Result r =
        ChildJvm.on("direct", jdk)
            .agent("sites=" + sites)
            .record()
            .run("com.acme.it.CacheApp", "--samples=8", "--kind=direct-slice", "--evict-at-end");
    assertEquals(0, r.exitCode, r.toString());
    List<RecordedEvent> admissions = r.events(CacheAdmissionEvent.NAME);
    assertEquals(8, admissions.size(), r.toString());
    for (RecordedEvent e : admissions) {
      assertEquals("direct", e.getString(TIER), e.toString());
      assertEquals(1 << 20, e.getLong(LOGICAL_BYTES));
      assertEquals(16 << 20, e.getLong(STORAGE_BYTES), "priced by the owner: " + e);
      if (e.getString(DECISION).startsWith(Decision.ADMIT.name())) {
        assertEquals(Decision.ADMIT_MATERIALIZED.name(), e.getString(DECISION));
        assertTrue(e.getBoolean(MATERIALIZED));
      }
    }
    assertTrue(!r.stderr.contains("does not export sun.nio.ch"), r.stderr);
  }
}
