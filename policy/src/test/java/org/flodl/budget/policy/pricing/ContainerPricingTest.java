package org.flodl.budget.policy.pricing;

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
 * Containers the loaders use are the sum of their parts, each object charged once however often
 * it is reached; views inside containers the pricer can rebuild as the same class are
 * materialized (the container kept is a rebuilt one, the application's is untouched), inside any
 * other container they are kept and charged their whole storage; the estimate always equals the
 * retained charge.
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
    Retained kept = retainAgreeing(List.of(a, a, new float[10], a));
    assertEquals(140, kept.price().chargedBytes());
    assertEquals(140, kept.price().logicalBytes());
    assertEquals(Tier.HEAP, kept.price().tier());
    assertEquals(140, pricer.retainedCostEstimate(List.of(a, a, new float[10])));
  }

  @Test
  void cyclesEnd() throws RetentionException {
    List<Object> list = new ArrayList<>();
    list.add(new byte[10]);
    list.add(list);
    Map<String, Object> map = new HashMap<>();
    map.put("self", map);
    map.put("list", list);
    assertEquals(10, retainAgreeing(map).price().chargedBytes());
  }

  @Test
  void viewsInARebuildableArrayAreCopiedIntoANewArray() throws RetentionException {
    ByteBuffer view = directView();
    ByteBuffer[] rows = {view, ByteBuffer.allocate(64)};
    Retained kept = retainAgreeing(rows);
    assertEquals(4096 + 64, kept.price().chargedBytes());
    assertEquals((1 << 20) + 64, kept.price().storageBytes());
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
    assertEquals(8 + 4096, keptList.price().chargedBytes());
    assertEquals(ArrayList.class, keptList.value().getClass());
    assertSame(view, list.get(1));
    assertNotSame(view, ((List<?>) keptList.value()).get(1));
    assertEquals(view, ((List<?>) keptList.value()).get(1));

    for (Map<String, Object> map : List.of(new HashMap<String, Object>(), new LinkedHashMap<String, Object>())) {
      map.put("pixels", view);
      map.put("label", new int[1]);
      Retained keptMap = retainAgreeing(map);
      assertEquals(4096 + 4, keptMap.price().chargedBytes());
      assertEquals(map.getClass(), keptMap.value().getClass());
      Map<?, ?> out = (Map<?, ?>) keptMap.value();
      assertEquals(map.keySet(), out.keySet());
      assertNotSame(view, out.get("pixels"));
      assertSame(view, map.get("pixels"));
    }

    // Nested rebuildable containers are rebuilt at every level.
    Object[] nested = {new ArrayList<>(List.of(view))};
    Retained keptNested = retainAgreeing(nested);
    assertEquals(4096, keptNested.price().chargedBytes());
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
      assertEquals(1 << 20, kept.price().chargedBytes(), "the whole pin");
      assertEquals(4096, kept.price().logicalBytes());
    }
  }

  @Test
  void retainRowsMirrorsTheSeed() throws RetentionException {
    ByteBuffer view = directView();
    byte[] owned = new byte[32];
    List<Object> rows = Arrays.asList(view, owned, null, owned);
    assertEquals(4096 + 32, pricer.retainedCostEstimate(rows));
    RetainedRows kept = pricer.retainRows(rows);
    assertEquals(4096 + 32, kept.chargedBytes());
    assertTrue(kept.materialized());
    assertEquals(4, kept.values().size());
    assertNotSame(view, kept.values().get(0));
    assertEquals(view, kept.values().get(0));
    assertSame(owned, kept.values().get(1));
    assertEquals(null, kept.values().get(2));
  }

  @Test
  void otherObjectsAreChargedTheirShallowSize() throws RetentionException {
    Priced price = retainAgreeing("a string").price();
    assertEquals(ShallowSizer.estimate(String.class), price.chargedBytes());
    assertEquals(Tier.HEAP, price.tier());
    assertEquals("java.lang.String", price.valueType());
    assertTrue(pricer.shallowSizeLimitation() != null, "no Instrumentation in unit tests");
    assertEquals(0, pricer.estimate(null).chargedBytes());
  }
}
