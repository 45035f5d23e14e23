package org.flodl.budget.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SizesTest {
  @Test
  void binarySuffixes() {
    assertEquals(16L << 10, Sizes.parse("16K"));
    assertEquals(5592L << 20, Sizes.parse("5592M"));
    assertEquals(2L << 30, Sizes.parse("2G"));
    assertEquals(2L << 30, Sizes.parse("2GiB"));
    assertEquals(16L << 10, Sizes.parse("16kb"));
    assertEquals(6_360_465_408L, Sizes.parse("6360465408"));
    assertEquals(1L << 40, Sizes.parse(" 1T "));
    assertEquals(512, Sizes.parse("512B"));
  }

  @Test
  void badSizesNameTheText() {
    for (String bad : new String[] {"", "abc", "-1", "12Q", "1.5G", "99999999999T"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Sizes.parse(bad));
      assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
    }
  }

  @Test
  void humanReadable() {
    assertEquals("512 B", Sizes.human(512));
    assertEquals("16.0 KiB", Sizes.human(16L << 10));
    assertEquals("5.92 GiB", Sizes.human(6_360_465_408L));
    assertEquals("unlimited", Sizes.human(Long.MAX_VALUE));
  }
}
