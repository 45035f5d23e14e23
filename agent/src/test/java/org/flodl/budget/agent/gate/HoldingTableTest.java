package org.flodl.budget.agent.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.ReferenceQueue;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.policy.TierLedger;
import org.junit.jupiter.api.Test;

/**
 * One segment of the holdings table with values chosen so that they collide: many share a bucket's
 * chain, a value is unlinked from its chain's head, middle or end, and a growth or a shrink
 * rehashes the chains. Each value linked is found until unlinked, and only then.
 */
class HoldingTableTest {
  private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
  private final Account account =
      new Account(new CacheSite("table", 0), new TierLedger(Tier.HEAP, 1L << 40));

  /**
   * Returns {@code n} new objects whose identity hashes put them in one of {@code buckets} of every
   * table of up to {@code mask + 1} buckets (a table rehashes by identity as it grows): objects are
   * made until that many fall there.
   */
  private static List<Object> colliding(int n, int mask, int... buckets) {
    List<Object> values = new ArrayList<>();
    while (values.size() < n) {
      Object v = new Object();
      int bucket = (hash(v) >>> Holdings.SEGMENT_BITS) & mask;
      for (int b : buckets) {
        if (bucket == b) {
          values.add(v);
        }
      }
    }
    return values;
  }

  private static int hash(Object v) {
    return System.identityHashCode(v);
  }

  @Test
  void valuesOfOneBucketShareAChainAndEachIsFoundUntilUnlinked() {
    HoldingTable table = new HoldingTable();
    List<Object> values = colliding(50, 63, 3); // past three growths (to 64), all in one chain
    for (int i = 0; i < values.size(); i++) {
      assertTrue(table.link(values.get(i), hash(values.get(i)), queue, account, i + 1));
    }
    for (Object v : values) {
      assertTrue(table.contains(v, hash(v)));
      assertFalse(table.link(v, hash(v), queue, account, 1), "linked already");
    }
    for (int i = 0; i < values.size(); i += 2) { // out of the chain's head, middle and end
      Holding h = table.unlinkValue(values.get(i), hash(values.get(i)));
      assertNotNull(h);
      assertEquals(i + 1, h.bytes(), "its own holding");
    }
    for (int i = 0; i < values.size(); i++) {
      assertEquals(i % 2 == 1, table.contains(values.get(i), hash(values.get(i))), "value " + i);
    }
    assertNull(table.unlinkValue(values.get(0), hash(values.get(0))), "unlinked once");
  }

  /**
   * Random links, unlinks and lookups of values of a few buckets, so that chains grow long and
   * split as the table grows, against an identity map: the table answers as the map does at every
   * step.
   */
  @Test
  void randomOperationsOnCollidingHashesAnswerAsAnIdentityMapDoes() {
    Random random = new Random(40);
    for (int round = 0; round < 20; round++) {
      HoldingTable table = new HoldingTable();
      Map<Object, Integer> model = new IdentityHashMap<>();
      // four buckets of 512: 300 values in few chains, split as the table grows and shrinks
      List<Object> pool = colliding(300, 511, 0, 7, 256, 263);
      for (int step = 0; step < 3000; step++) {
        Object v = pool.get(random.nextInt(pool.size()));
        int hash = hash(v);
        int op = random.nextInt(3);
        if (op == 0) {
          int bytes = 1 + random.nextInt(1000);
          boolean linked = table.link(v, hash, queue, account, bytes);
          assertEquals(!model.containsKey(v), linked, "link at step " + step);
          if (linked) {
            model.put(v, bytes);
          }
        } else if (op == 1) {
          Holding h = table.unlinkValue(v, hash);
          Integer bytes = model.remove(v);
          if (bytes == null) {
            assertNull(h, "unlink at step " + step);
          } else {
            assertNotNull(h, "unlink at step " + step);
            assertSame(v, h.get());
            assertEquals((long) bytes, h.bytes());
          }
        } else {
          assertEquals(model.containsKey(v), table.contains(v, hash), "contains at step " + step);
        }
      }
      for (Object v : pool) {
        assertEquals(model.containsKey(v), table.contains(v, hash(v)));
      }
      // Unlinked down to a few, the table halves at the second trim running: they stay found.
      for (Object v : pool.subList(10, pool.size())) {
        assertEquals(model.remove(v) != null, table.unlinkValue(v, hash(v)) != null);
      }
      long[] before = new long[2];
      table.census(before);
      table.trim();
      table.trim();
      long[] after = new long[2];
      table.census(after);
      assertTrue(after[1] < before[1], "shrank: " + before[1] + " -> " + after[1] + " buckets");
      for (Object v : pool) {
        assertEquals(model.containsKey(v), table.contains(v, hash(v)));
      }
      long[] c = new long[2];
      table.census(c);
      assertEquals(model.size(), c[0]);
    }
  }
}
