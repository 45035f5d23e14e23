package com.acme.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class RowGroupSourceTest {

    @Test
    void slicesAreViewsOfTheWholeRowGroupAndCopiesAreNot() {
        RowGroupSource slices = new RowGroupSource(40, 1000, 10_000, 9, SampleKind.SLICE, false, 1);
        RowGroupSource direct = new RowGroupSource(40, 1000, 10_000, 9, SampleKind.DIRECT_SLICE, true, 1);
        RowGroupSource arrays = new RowGroupSource(40, 1000, 10_000, 9, SampleKind.ARRAY, false, 1);
        assertEquals(10, slices.samplesPerRowGroup());
        assertEquals(4, slices.rowGroups());
        ByteBuffer slice = (ByteBuffer) slices.read(13);
        assertEquals(1000, slice.remaining());
        assertEquals(10_000, slice.array().length, "a heap slice keeps its whole row group reachable");
        ByteBuffer directSlice = (ByteBuffer) direct.read(13);
        assertTrue(directSlice.isDirect());
        byte[] copy = (byte[]) arrays.read(13);
        assertEquals(1000, copy.length);
        for (int id : new int[] {0, 13, 39}) {
            long h = Samples.contentHash(id, slices.read(id));
            assertEquals(h, Samples.contentHash(id, arrays.read(id)));
            assertEquals(h, Samples.contentHash(id, direct.read(id)));
        }
        assertNotEquals(Samples.contentHash(1, arrays.read(1)), Samples.contentHash(2, arrays.read(2)));
    }

    @Test
    void keepsOnlyTheOpenRowGroupsAndRegeneratesTheSameBytes() {
        RowGroupSource source = new RowGroupSource(30, 64, 640, 3, SampleKind.ARRAY, false, 1);
        long first = Samples.contentHash(0, source.read(0));
        source.read(1);
        assertEquals(1, source.rowGroupsOpened());
        source.read(25);
        assertEquals(2, source.rowGroupsOpened());
        assertEquals(first, Samples.contentHash(0, source.read(0)));
        assertEquals(3, source.rowGroupsOpened(), "one open row group: going back reopens it");
    }

    @Test
    void theLastRowGroupMayBeShort() {
        RowGroupSource source = new RowGroupSource(25, 100, 1000, 1, SampleKind.SLICE, false, 2);
        assertEquals(3, source.rowGroups());
        ByteBuffer last = (ByteBuffer) source.read(24);
        assertEquals(500, last.array().length);
        assertFalse(last.isDirect());
    }
}
