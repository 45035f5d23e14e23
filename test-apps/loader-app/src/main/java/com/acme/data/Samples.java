package com.acme.data;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Byte access to a sample whatever its kind ({@code byte[]} or {@code ByteBuffer}, heap or direct,
 * view or not), by absolute index so a shared buffer's position is never touched, and the content hash
 * the training run's checksum is built from.
 */
public final class Samples {

    private static final VarHandle LONGS_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private Samples() {
    }

    /** Returns the number of bytes of a sample: a {@code byte[]}'s length or a buffer's remaining bytes. */
    public static int length(Object sample) {
        if (sample instanceof byte[]) {
            return ((byte[]) sample).length;
        }
        if (sample instanceof ByteBuffer) {
            return ((ByteBuffer) sample).remaining();
        }
        throw new IllegalArgumentException("not a sample: " + (sample == null ? "null" : sample.getClass().getName()));
    }

    /** Returns the byte at {@code i} (0-based, relative to the sample's start). */
    public static byte byteAt(Object sample, int i) {
        if (sample instanceof byte[]) {
            return ((byte[]) sample)[i];
        }
        ByteBuffer b = (ByteBuffer) sample;
        return b.get(b.position() + i);
    }

    /** Returns the little-endian long at byte offset {@code i}; the caller keeps {@code i + 8 <= length}. */
    public static long longAt(Object sample, int i) {
        if (sample instanceof byte[]) {
            return (long) LONGS_LE.get((byte[]) sample, i);
        }
        ByteBuffer b = (ByteBuffer) sample;
        return b.order() == ByteOrder.LITTLE_ENDIAN ? b.getLong(b.position() + i)
                : Long.reverseBytes(b.getLong(b.position() + i));
    }

    /**
     * Returns a hash of the sample's bytes mixed with its id; the same for a slice and for its copy, so
     * a checksum summed over samples does not depend on order, caching or materialization.
     */
    public static long contentHash(int id, Object sample) {
        int n = length(sample);
        long h = 0x9E3779B97F4A7C15L ^ id;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h = mix(h ^ longAt(sample, i));
        }
        for (; i < n; i++) {
            h = mix(h ^ (byteAt(sample, i) & 0xFF));
        }
        return mix(h ^ n);
    }

    /** Returns splitmix64's finalizer of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
