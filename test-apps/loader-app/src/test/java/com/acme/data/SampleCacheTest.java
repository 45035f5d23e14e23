package com.acme.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class SampleCacheTest {

    @Test
    void putReturnsThePreviousValueAndEvictReturnsTheEvictedOne() {
        SampleCache cache = new SampleCache();
        byte[] a = new byte[10];
        ByteBuffer b = ByteBuffer.allocate(100).slice(10, 30);
        assertNull(cache.put(1, a));
        assertSame(a, cache.put(1, b));
        assertEquals(1, cache.size());
        assertEquals(30, cache.sampleBytes(), "a slice counts its own bytes, not its buffer's");
        assertSame(b, cache.get(1));
        assertNull(cache.get(2));
        assertEquals(1, cache.hits());
        assertEquals(1, cache.misses());
        assertSame(b, cache.evict(1));
        assertNull(cache.evict(1));
        assertEquals(0, cache.size());
        assertEquals(2, cache.puts());
    }

    @Test
    void aCaffeineCacheWithAWeightKeepsItsSampleBytesUnderIt() {
        SampleCache cache = SampleCache.of("caffeine", 3 * 1024);
        for (int i = 0; i < 10; i++) {
            cache.put(i, new byte[1024]);
        }
        assertTrue(cache.size() <= 3, "the weigher bounds it: " + cache.size());
        assertTrue(cache.sampleBytes() <= 3 * 1024);
        assertEquals(10, cache.puts());
        SampleCache unbounded = SampleCache.of("caffeine", 0);
        for (int i = 0; i < 10; i++) {
            unbounded.put(i, new byte[1024]);
        }
        assertEquals(10, unbounded.size());
        assertThrows(IllegalArgumentException.class, () -> SampleCache.of("map", 1024));
        assertThrows(IllegalArgumentException.class, () -> SampleCache.of("guava", 0));
    }
}
