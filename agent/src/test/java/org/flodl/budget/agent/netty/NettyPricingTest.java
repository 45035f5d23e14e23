package org.flodl.budget.agent.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import org.flodl.budget.policy.Tier;
import org.flodl.budget.pricing.Priced;
import org.flodl.budget.pricing.RetentionPricer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Netty unit's pricer ({@link NettyPricing}) against Netty 4.2's own buffers: heap and direct,
 * unpooled and pooled, slices and duplicates (retained or not) followed to the buffer that owns the
 * memory, composites through each component, each owner charged once; never copied; an allocator a
 * walk reaches charged nothing.
 */
class NettyPricingTest {
  private final List<String> notices = new ArrayList<>();
  private final RetentionPricer pricer =
      RetentionPricer.standard(
          null, getClass().getClassLoader(), notices::add, List.of(new NettyPricing()));
  private final List<ByteBuf> owned = new ArrayList<>();

  @AfterEach
  void release() {
    for (ByteBuf b : owned) {
      b.release();
    }
  }

  private <T extends ByteBuf> T own(T b) {
    owned.add(b);
    return b;
  }

  @Test
  void unpooledBuffersAreChargedTheirCapacityOnTheirTier() {
    Priced heap = pricer.estimate(own(Unpooled.buffer(4096, 4096)));
    assertEquals(Tier.HEAP, heap.tier());
    assertEquals(4096, heap.chargedBytes());
    Priced direct = pricer.estimate(own(UnpooledByteBufAllocator.DEFAULT.directBuffer(8192, 8192)));
    assertEquals(Tier.DIRECT, direct.tier());
    assertEquals(8192, direct.chargedBytes());
    assertFalse(direct.materialize());
  }

  @Test
  void slicesAndDuplicatesAreChargedTheBufferThatOwnsTheMemory() {
    ByteBuf root = own(UnpooledByteBufAllocator.DEFAULT.directBuffer(1 << 20, 1 << 20));
    root.writerIndex(1 << 20);
    for (ByteBuf view :
        List.of(
            root.slice(4096, 1024),
            own(root.retainedSlice(8192, 1024)),
            root.duplicate(),
            own(root.retainedDuplicate()),
            root.slice(0, 4096).slice(0, 1024))) {
      Priced p = pricer.estimate(view);
      assertEquals(Tier.DIRECT, p.tier(), view.toString());
      assertEquals(view.capacity(), p.logicalBytes(), view.toString());
      assertEquals(1 << 20, p.storageBytes(), view.toString());
      if (view.capacity() == 1024) { // past the slack: copied, charged the copy
        assertTrue(p.materialize(), view.toString());
        assertEquals(1024, p.chargedBytes(), "the copy's capacity: " + view);
      } else { // a duplicate addresses its whole owner: kept, charged it
        assertFalse(p.materialize(), view.toString());
        assertEquals(1 << 20, p.chargedBytes(), "the whole owner: " + view);
      }
    }
  }

  @Test
  void aSliceIsCopiedIntoABufferOfItsOwnAllocatorWithItsBytesAndIndexes() throws Exception {
    ByteBuf root = own(PooledByteBufAllocator.DEFAULT.directBuffer(1 << 20));
    root.writerIndex(1 << 20);
    for (int i = 0; i < 1000; i++) {
      root.setByte(8192 + i, i * 7);
    }
    // the reference made for the cache: once copied, the pricer's to release when unreachable
    ByteBuf slice = root.retainedSlice(8192, 1000);
    slice.readerIndex(10);
    Object kept = pricer.retain(slice).value();
    assertTrue(kept instanceof ByteBuf && kept != slice, "a copy: " + kept);
    ByteBuf copy = own((ByteBuf) kept);
    assertTrue(copy.isDirect());
    assertSame(slice.alloc(), copy.alloc(), "from the slice's own allocator");
    assertEquals(1000, copy.capacity());
    assertEquals(10, copy.readerIndex());
    assertEquals(1000, copy.writerIndex());
    assertEquals(1, copy.refCnt());
    for (int i = 0; i < 1000; i++) {
      assertEquals((byte) (i * 7), copy.getByte(i), "byte " + i);
    }
    assertEquals(1024, pricer.estimate(slice).chargedBytes(), "its capacity, a power of two");
  }

  @Test
  void aPooledSliceIsChargedItsOwnersWholeSlot() {
    ByteBuf root = own(PooledByteBufAllocator.DEFAULT.directBuffer(100_000));
    root.writerIndex(100_000);
    ByteBuf slice = own(root.retainedSlice(0, 1024));
    long slot = root.writerIndex() + root.maxFastWritableBytes();
    assertTrue(slot >= 100_000, "the slot is the allocation rounded up: " + slot);
    Priced p = pricer.estimate(slice);
    assertEquals(Tier.DIRECT, p.tier());
    assertEquals(slot, p.storageBytes(), "it pins the owner's whole slot");
    assertTrue(p.materialize(), "so it is copied");
    assertEquals(1024, p.chargedBytes());
  }

  @Test
  void aCompositeIsEachComponentsOwnerOnce() {
    ByteBuf a = own(UnpooledByteBufAllocator.DEFAULT.directBuffer(64 << 10, 64 << 10));
    ByteBuf b = own(UnpooledByteBufAllocator.DEFAULT.directBuffer(32 << 10, 32 << 10));
    a.writerIndex(64 << 10);
    b.writerIndex(32 << 10);
    CompositeByteBuf c = own(Unpooled.compositeBuffer());
    // two slices of a (one owner, charged once) and one of b
    c.addComponents(true, a.retainedSlice(0, 1024), a.retainedSlice(4096, 1024), b.retainedSlice());
    Priced p = pricer.estimate(c);
    assertEquals(Tier.DIRECT, p.tier());
    assertEquals((64 << 10) + (32 << 10), p.chargedBytes(), "" + p);
  }

  @Test
  void anAllocatorAWalkReachesIsTheJobs() {
    record Holder(ByteBuf sample, PooledByteBufAllocator alloc) {}
    ByteBuf s = own(UnpooledByteBufAllocator.DEFAULT.directBuffer(1024, 1024));
    long alone = pricer.estimate(new Holder(s, null)).chargedBytes();
    Priced withAllocator = pricer.estimate(new Holder(s, PooledByteBufAllocator.DEFAULT));
    assertEquals(alone, withAllocator.chargedBytes(), "the allocator is charged nothing");
    assertFalse(withAllocator.estimated(), "not walked into");
  }
}
