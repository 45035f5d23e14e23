package com.acme.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

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
    }
}
