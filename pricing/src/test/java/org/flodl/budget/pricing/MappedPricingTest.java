package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File mappings are file-backed: their own tier, priced by the bytes they address, never copied,
 * even a 4 KiB window of a 1 MiB mapping (a direct buffer of the same shape would be copied).
 */
class MappedPricingTest {
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), line -> {});

  @Test
  void mappedBuffersArePricedByTheirLogicalBytesAndNeverCopied(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("shard.bin");
    Files.write(file, new byte[1 << 20]);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer whole = ch.map(FileChannel.MapMode.READ_ONLY, 0, 1 << 20);
      Priced all = pricer.estimate(whole);
      assertEquals(Tier.MAPPED, all.tier());
      assertEquals(1 << 20, all.chargedBytes());

      MappedByteBuffer window = whole.slice(4096, 4096);
      Retained kept = pricer.retain(window);
      assertEquals(Tier.MAPPED, kept.price().tier());
      assertEquals(4096, kept.price().logicalBytes());
      assertEquals(4096, kept.price().chargedBytes());
      assertFalse(kept.materialized());
      assertSame(window, kept.value());

      FloatBuffer floats = whole.order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().slice(0, 16);
      Priced typed = pricer.estimate(floats);
      assertEquals(Tier.MAPPED, typed.tier(), "a typed view of a mapping is file-backed too");
      assertEquals(64, typed.chargedBytes());
      assertSame(floats, pricer.retain(floats).value());
    }
  }
}
