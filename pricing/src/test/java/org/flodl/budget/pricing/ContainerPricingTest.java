package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;

/**
 * Containers the loaders use are the sum of their parts, each object charged once however often it
 * is reached: arrays their whole allocation (a 16-byte header, elements, rounded to 8), JDK
 * collections their own object, backing array and nodes, maps their keys and values, Strings their
 * bytes; views inside containers the pricer can rebuild as the same class are materialized (the
 * container kept is a rebuilt one, the application's is untouched), inside any other container they
 * are kept and charged their whole storage; the estimate always equals the retained charge. (No
 * Instrumentation here: shallow sizes are the estimate, references 4 bytes in arrays.)
 */
class ContainerPricingTest {
  private final List<String> notices = new ArrayList<>();
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), notices::add);

  /** A 4 KiB view of a 1 MiB direct buffer, filled with a pattern. */
  private static ByteBuffer directView() {
    ByteBuffer owner = ByteBuffer.allocateDirect(1 << 20);
    for (int i = 0; i < owner.capacity(); i += 4096) {
      owner.put(i, (byte) (i >> 12));
    }
    return owner.slice(8192, 4096);
  }

  /** An array's allocation: a 16-byte header and the elements, rounded up to 8. */
  static long arr(long length, long elementBytes) {
    return (16 + length * elementBytes + 7) / 8 * 8;
  }

  static long shallow(Object o) {
    return ShallowSizer.estimate(o.getClass());
  }

  /** A String: its object and its LATIN1 bytes. */
  static long string(String s) {
    return shallow(s) + arr(s.length(), 1);
  }

  /** A HashMap of {@code n} entries in a table of {@code buckets}: object, table and nodes. */
  static long hashMap(Map<?, ?> m, int buckets, int nodeBytes) {
    return shallow(m) + arr(buckets, 4) + (long) m.size() * nodeBytes;
  }

  private Retained retainAgreeing(Object value) throws RetentionException {
    Priced estimate = pricer.estimate(value);
    Retained kept = pricer.retain(value);
    assertEquals(estimate, kept.price(), "estimate and retain disagree");
    assertTrue(estimate.chargedBytes() >= estimate.logicalBytes());
    return kept;
  }

  @Test
  void anObjectReachedTwiceIsChargedOnce() throws RetentionException {
    byte[] a = new byte[100];
    List<Object> list = List.of(a, a, new float[10], a);
    Retained kept = retainAgreeing(list);
    assertEquals(shallow(list) + arr(100, 1) + arr(10, 4), kept.price().chargedBytes());
    assertEquals(shallow(list) + 140, kept.price().logicalBytes(), "the elements' payloads");
    assertEquals(Tier.HEAP, kept.price().tier());
    assertFalse(kept.price().estimated());
    assertEquals(
        arr(100, 1) + arr(10, 4), pricer.retainedCostEstimate(List.of(a, a, new float[10])));
  }

  @Test
  void cyclesEnd() throws RetentionException {
    List<Object> list = new ArrayList<>();
    list.add(new byte[10]);
    list.add(list);
    Map<String, Object> map = new HashMap<>();
    map.put("self", map);
    map.put("list", list);
    // the map (16 buckets, 2 nodes of 32), its keys, the list (elementData of 10) and its bytes
    assertEquals(
        hashMap(map, 16, 32)
            + string("self")
            + string("list")
            + shallow(list)
            + arr(10, 4)
            + arr(10, 1),
        retainAgreeing(map).price().chargedBytes());
  }

  @Test
  void viewsInARebuildableArrayAreCopiedIntoANewArray() throws RetentionException {
    ByteBuffer view = directView();
    ByteBuffer[] rows = {view, ByteBuffer.allocate(64)};
    Retained kept = retainAgreeing(rows);
    assertEquals(arr(2, 4) + 4096 + 64, kept.price().chargedBytes());
    assertEquals(arr(2, 4) + (1 << 20) + 64, kept.price().storageBytes());
    assertEquals(Tier.DIRECT, kept.price().tier(), "the tier charged the most");
    assertTrue(kept.materialized());
    ByteBuffer[] out = (ByteBuffer[]) kept.value();
    assertNotSame(rows, out);
    assertSame(view, rows[0], "the application's array is untouched");
    assertNotSame(view, out[0]);
    assertSame(rows[1], out[1]);
    assertTrue(out[0].isDirect());
    assertEquals(view, out[0], "same remaining bytes");
    assertEquals(4096, pricer.estimate(out[0]).storageBytes());
  }

  @Test
  void viewsInArrayListsAndHashMapsAreCopiedIntoNewOnes() throws RetentionException {
    ByteBuffer view = directView();
    ArrayList<Object> list = new ArrayList<>(List.of(new byte[8], view));
    Retained keptList = retainAgreeing(list);
    assertEquals(shallow(list) + arr(2, 4) + arr(8, 1) + 4096, keptList.price().chargedBytes());
    assertEquals(ArrayList.class, keptList.value().getClass());
    assertSame(view, list.get(1));
    assertNotSame(view, ((List<?>) keptList.value()).get(1));
    assertEquals(view, ((List<?>) keptList.value()).get(1));

    for (Map<String, Object> map :
        List.of(new HashMap<String, Object>(), new LinkedHashMap<String, Object>())) {
      map.put("pixels", view);
      map.put("label", new int[1]);
      Retained keptMap = retainAgreeing(map);
      assertEquals(
          hashMap(map, 16, map instanceof LinkedHashMap ? 40 : 32)
              + string("pixels")
              + string("label")
              + 4096
              + arr(1, 4),
          keptMap.price().chargedBytes());
      assertEquals(map.getClass(), keptMap.value().getClass());
      Map<?, ?> out = (Map<?, ?>) keptMap.value();
      assertEquals(map.keySet(), out.keySet());
      assertNotSame(view, out.get("pixels"));
      assertSame(view, map.get("pixels"));
    }

    // Nested rebuildable containers are rebuilt at every level.
    Object[] nested = {new ArrayList<>(List.of(view))};
    Retained keptNested = retainAgreeing(nested);
    assertEquals(
        arr(1, 4) + shallow(nested[0]) + arr(1, 4) + 4096, keptNested.price().chargedBytes());
    assertNotSame(view, ((List<?>) ((Object[]) keptNested.value())[0]).get(0));
  }

  @Test
  void viewsInOtherContainersAreKeptAndChargedTheirStorage() throws RetentionException {
    ByteBuffer view = directView();
    for (Object container :
        List.of(
            List.of(view),
            Collections.unmodifiableList(new ArrayList<>(List.of(view))),
            Map.of("pixels", view),
            new java.util.LinkedList<>(List.of(view)))) {
      Retained kept = retainAgreeing(container);
      assertSame(container, kept.value(), container.getClass().getName());
      assertFalse(kept.materialized());
      long overhead = kept.price().chargedBytes() - (1 << 20);
      assertTrue(
          overhead >= shallow(container) && overhead < 256,
          "the whole pin, and the container's own few bytes: " + overhead);
      long logical = kept.price().logicalBytes();
      assertTrue(logical >= 4096 && logical < 4096 + 256, "what the view addresses: " + logical);
    }
  }

  @Test
  void retainRowsMirrorsTheSeed() throws RetentionException {
    ByteBuffer view = directView();
    byte[] owned = new byte[32];
    List<Object> rows = Arrays.asList(view, owned, null, owned);
    assertEquals(4096 + arr(32, 1), pricer.retainedCostEstimate(rows), "a byte[] pins its header");
    RetainedRows kept = pricer.retainRows(rows);
    assertEquals(4096 + arr(32, 1), kept.chargedBytes());
    assertTrue(kept.materialized());
    assertEquals(4, kept.values().size());
    assertNotSame(view, kept.values().get(0));
    assertEquals(view, kept.values().get(0));
    assertSame(owned, kept.values().get(1));
    assertEquals(null, kept.values().get(2));
  }

  @Test
  void stringsAreChargedTheirBytesAndJdkObjectsTheirShallowSize() throws RetentionException {
    Priced price = retainAgreeing("a string").price();
    assertEquals(string("a string"), price.chargedBytes(), "its object and its 8 LATIN1 bytes");
    assertEquals(8, price.logicalBytes());
    assertEquals(Tier.HEAP, price.tier());
    assertEquals("java.lang.String", price.valueType());
    assertEquals(
        shallow("x") + arr(4, 1),
        pricer.estimate("a\u2603").chargedBytes(),
        "UTF16 when one char needs it: 2 chars, 4 bytes");
    Priced other = retainAgreeing(new java.util.concurrent.atomic.AtomicLong(3)).price();
    assertEquals(
        ShallowSizer.estimate(java.util.concurrent.atomic.AtomicLong.class), other.chargedBytes());
    assertEquals(0, pricer.estimate(Thread.currentThread()).chargedBytes(), "the JVM's, shared");
    assertEquals(0, pricer.estimate(String.class).chargedBytes());
    assertTrue(pricer.shallowSizeLimitation() != null, "no Instrumentation in unit tests");
    assertEquals(0, pricer.estimate(null).chargedBytes());
  }
}
