package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The seed's {@code retention_prices_views_by_storage}, on an 8×8 float buffer (heap and direct):
 * the owner is charged its 256 bytes; a one-row view (32 of 256 bytes) is past the slack factor,
 * materialized and charged 32; a half view (128 bytes) is kept as a view and charged the 256 it
 * pins.
 */
class SeedRetentionTest {
  private final List<String> notices = new ArrayList<>();
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), notices::add);

  private static FloatBuffer base(boolean direct) {
    FloatBuffer base =
        direct
            ? ByteBuffer.allocateDirect(64 * Float.BYTES)
                .order(ByteOrder.nativeOrder())
                .asFloatBuffer()
            : FloatBuffer.allocate(64);
    for (int i = 0; i < 64; i++) {
      base.put(i, i * 0.5f);
    }
    return base;
  }

  private static float[] floats(FloatBuffer b) {
    float[] out = new float[b.capacity()];
    for (int i = 0; i < out.length; i++) {
      out[i] = b.get(i);
    }
    return out;
  }

  @ParameterizedTest(name = "direct={0}")
  @ValueSource(booleans = {false, true})
  void retentionPricesViewsByStorage(boolean direct) throws RetentionException {
    assertNull(pricer.limitation(), "surefire grants sun.nio.ch and java.nio");
    Tier tier = direct ? Tier.DIRECT : Tier.HEAP;
    FloatBuffer base = base(direct);

    // Owner: logical == storage, kept, charged its bytes.
    Retained owner = pricer.retain(base);
    assertEquals(256, owner.price().chargedBytes());
    assertEquals(256, owner.price().storageBytes());
    assertEquals(tier, owner.price().tier());
    assertFalse(owner.materialized());
    assertSame(base, owner.value());

    // A one-row view: 32 logical bytes pinning 256, past the slack factor: materialized, 32.
    FloatBuffer row = base.slice(0, 8);
    Priced rowEstimate = pricer.estimate(row);
    assertEquals(32, rowEstimate.logicalBytes());
    assertTrue(rowEstimate.storageBytes() >= 256);
    assertEquals(32, rowEstimate.chargedBytes());
    assertEquals(32, pricer.retainedCostEstimate(List.of(row)));
    Retained kept = pricer.retain(row);
    assertTrue(kept.materialized());
    assertEquals(rowEstimate, kept.price());
    assertEquals(32, kept.price().chargedBytes());
    FloatBuffer copy = (FloatBuffer) kept.value();
    assertNotSame(row, copy);
    assertEquals(direct, copy.isDirect());
    assertEquals(32, pricer.estimate(copy).storageBytes(), "the copy owns its storage");
    assertArrayEquals(floats(row), floats(copy));
    RetainedRows rows = pricer.retainRows(List.of(row));
    assertEquals(32, rows.chargedBytes());
    assertArrayEquals(floats(row), floats((FloatBuffer) rows.values().get(0)));

    // A view within the slack (half the buffer): kept as a view, charged the FULL storage.
    FloatBuffer half = base.slice(0, 32);
    assertEquals(128, pricer.estimate(half).logicalBytes());
    assertEquals(256, pricer.estimate(half).chargedBytes());
    assertEquals(256, pricer.retainedCostEstimate(List.of(half)));
    Retained halfKept = pricer.retain(half);
    assertEquals(256, halfKept.price().chargedBytes());
    assertFalse(halfKept.materialized());
    assertSame(half, halfKept.value());
    assertEquals(256, pricer.estimate(halfKept.value()).storageBytes());
    assertTrue(notices.isEmpty(), notices.toString());
  }
}
