package com.acme.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.acme.data.RowGroupSource;
import com.acme.data.SampleKind;
import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TrainMainTest {

    @ParameterizedTest
    @ValueSource(strings = {"true", "global", "false"})
    void everyShuffleIsAPermutation(String shuffle) {
        RowGroupSource source = new RowGroupSource(103, 10, 100, 1, SampleKind.ARRAY, false, 1);
        int[] order = TrainMain.order(shuffle, source, new SplittableRandom(5));
        BitSet seen = new BitSet();
        for (int id : order) {
            seen.set(id);
        }
        assertEquals(103, order.length);
        assertEquals(103, seen.cardinality());
        int[] sorted = order.clone();
        Arrays.sort(sorted);
        if (shuffle.equals("false")) {
            assertTrue(Arrays.equals(sorted, order));
        } else {
            assertNotEquals(Arrays.toString(sorted), Arrays.toString(order));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100})
    void rowGroupShuffleReadsEachRowGroupInOneRun(int start) {
        RowGroupSource source = new RowGroupSource(103, 10, 100, 1, SampleKind.ARRAY, false, 1);
        int[] order = TrainMain.order("true", source, new SplittableRandom(11));
        int at = 0;
        while (order[at] / 10 != start / 10) {
            at++;
        }
        int run = 0;
        while (at + run < order.length && order[at + run] / 10 == start / 10) {
            run++;
        }
        assertEquals(start == 100 ? 3 : 10, run);
    }

    @Test
    void sizesTakeBinarySuffixesAndUnknownKeysAreRejected() {
        Options o = Options.parse(new String[] {"--sample-bytes=1M", "--row-group-bytes=64M", "--sample-kind=direct-slice"});
        assertEquals(1 << 20, o.sampleBytes);
        assertEquals(64L << 20, o.rowGroupBytes);
        assertTrue(o.directRowGroups);
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--sampel-bytes=1"}));
        assertThrows(IllegalArgumentException.class, () -> Options.parse(new String[] {"--sample-kind=slice", "--row-groups=direct"}));
    }
}
