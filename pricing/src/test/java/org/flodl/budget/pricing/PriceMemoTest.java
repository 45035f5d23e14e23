package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A thread's memo of the last JDK type it priced changes no price: every value priced through one
 * memo, in any order and by more than one pricer, is priced as without it; a primitive array of the
 * type and length priced last is its last price.
 */
class PriceMemoTest {
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), line -> {});
  private final RetentionPricer other =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), line -> {});

  @Test
  void everyValueIsPricedAsWithoutTheMemo() {
    ByteBuffer owner = ByteBuffer.allocateDirect(4096);
    List<Object> values =
        List.of(
            new byte[10],
            new byte[10],
            new byte[20],
            new long[5],
            new byte[20],
            "a string",
            "another, longer string",
            ByteBuffer.allocate(64),
            owner.slice(0, 16),
            new ArrayList<>(List.of(new byte[8], new byte[8])),
            new Object[] {new int[3]},
            new byte[10]);
    PriceMemo memo = new PriceMemo();
    for (int round = 0; round < 2; round++) {
      for (Object v : values) {
        RetentionPricer p = round == 0 ? pricer : other; // the memo is the other pricer's first
        assertEquals(p.estimate(v), p.estimate(v, memo), String.valueOf(v));
      }
    }
  }

  @Test
  void anArrayOfTheLastTypeAndLengthIsItsLastPrice() {
    PriceMemo memo = new PriceMemo();
    Priced first = pricer.estimate(new float[256], memo);
    assertSame(first, pricer.estimate(new float[256], memo));
    assertEquals(pricer.estimate(new float[257]), pricer.estimate(new float[257], memo));
  }
}
