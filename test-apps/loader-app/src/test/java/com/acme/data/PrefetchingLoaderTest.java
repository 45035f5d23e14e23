package com.acme.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PrefetchingLoaderTest {

    private static final SampleSource IDS = new SampleSource() {
        @Override
        public int size() {
            return 23;
        }

        @Override
        public Object read(int index) {
            return new byte[] {(byte) index};
        }
    };

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4, 64})
    void deliversEveryBatchInOrderAtAnyDepth(int depth) {
        int[] order = {5, 3, 22, 0, 1, 2, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21};
        List<Integer> seen = new ArrayList<>();
        try (PrefetchingLoader loader = new PrefetchingLoader(IDS, order, 5, depth, 0)) {
            assertEquals(depth, loader.depth());
            assertEquals(5, loader.batches());
            Batch b;
            int expectedIndex = 0;
            while ((b = loader.next()) != null) {
                assertEquals(expectedIndex++, b.index());
                for (int i = 0; i < b.size(); i++) {
                    assertEquals(b.id(i), ((byte[]) b.get(i))[0]);
                    seen.add(b.id(i));
                }
            }
            assertNull(loader.next(), "an ended epoch stays ended");
        }
        assertArrayEquals(order, seen.stream().mapToInt(Integer::intValue).toArray());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2})
    void aReadFailureReachesTheTrainingThreadAsItself(int depth) {
        OutOfMemoryError oom = new OutOfMemoryError("simulated");
        SampleSource failing = new SampleSource() {
            @Override
            public int size() {
                return 10;
            }

            @Override
            public Object read(int index) {
                if (index == 7) {
                    throw oom;
                }
                return new byte[1];
            }
        };
        try (PrefetchingLoader loader = new PrefetchingLoader(failing, new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 2, depth, 0)) {
            for (int i = 0; i < 3; i++) {
                assertTrue(loader.next() != null);
            }
            assertSame(oom, assertThrows(OutOfMemoryError.class, loader::next));
        }
    }

    @Test
    void rejectsANegativeDepth() {
        assertThrows(IllegalArgumentException.class, () -> new PrefetchingLoader(IDS, new int[] {0}, 1, -1, 0));
    }
}
