package com.acme.data;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A synthetic columnar file: the dataset is stored as row groups of {@code rowGroupBytes}, each holding
 * whole samples of {@code sampleBytes}. Reading a sample opens (generates, deterministically from the
 * seed) its row group as one large buffer, heap or direct, and cuts the sample from it: a
 * {@code ByteBuffer} slice (a view that keeps the whole row group reachable for as long as the sample
 * is) or a copy into a {@code byte[]}. Up to {@code openRowGroups} row groups stay open, least recently
 * used first out; a row group held only by its slices is kept alive by them, not by this source.
 */
public final class RowGroupSource implements SampleSource {

    private final int samples;
    private final int sampleBytes;
    private final int samplesPerRowGroup;
    private final long seed;
    private final SampleKind kind;
    private final boolean directRowGroups;
    private final Map<Integer, ByteBuffer> open;
    private long rowGroupsOpened;

    /**
     * Creates a source of {@code samples} samples of {@code sampleBytes} each, in row groups of about
     * {@code rowGroupBytes} (at least one sample each), cut as {@code kind}; row groups are direct
     * buffers when {@code directRowGroups}.
     */
    public RowGroupSource(int samples, int sampleBytes, long rowGroupBytes, long seed, SampleKind kind,
                          boolean directRowGroups, int openRowGroups) {
        if (samples <= 0 || sampleBytes <= 0 || rowGroupBytes <= 0 || openRowGroups <= 0) {
            throw new IllegalArgumentException("samples, sample-bytes, row-group-bytes and open-row-groups must be positive");
        }
        this.samples = samples;
        this.sampleBytes = sampleBytes;
        this.samplesPerRowGroup = (int) Math.max(1, Math.min(Integer.MAX_VALUE / sampleBytes, rowGroupBytes / sampleBytes));
        this.seed = seed;
        this.kind = kind;
        this.directRowGroups = directRowGroups;
        this.open = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, ByteBuffer> eldest) {
                return size() > openRowGroups;
            }
        };
    }

    @Override
    public int size() {
        return samples;
    }

    /** Returns the number of samples in one row group. */
    public int samplesPerRowGroup() {
        return samplesPerRowGroup;
    }

    /** Returns the number of row groups in the dataset. */
    public int rowGroups() {
        return (samples + samplesPerRowGroup - 1) / samplesPerRowGroup;
    }

    /** Returns how many times a row group was opened (generated) so far. */
    public synchronized long rowGroupsOpened() {
        return rowGroupsOpened;
    }

    @Override
    public synchronized Object read(int index) {
        if (index < 0 || index >= samples) {
            throw new IndexOutOfBoundsException("sample " + index + " of " + samples);
        }
        int group = index / samplesPerRowGroup;
        ByteBuffer rowGroup = open.get(group);
        if (rowGroup == null) {
            rowGroup = generate(group);
            open.put(group, rowGroup);
        }
        int offset = (index - group * samplesPerRowGroup) * sampleBytes;
        if (kind == SampleKind.ARRAY) {
            byte[] copy = new byte[sampleBytes];
            rowGroup.get(offset, copy, 0, sampleBytes);
            return copy;
        }
        return rowGroup.slice(offset, sampleBytes);
    }

    /** Returns row group {@code group}, filled with the deterministic content of its samples. */
    private ByteBuffer generate(int group) {
        rowGroupsOpened++;
        int first = group * samplesPerRowGroup;
        int count = Math.min(samplesPerRowGroup, samples - first);
        int bytes = count * sampleBytes;
        ByteBuffer buffer = directRowGroups ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        long base = (long) first * sampleBytes;
        int i = 0;
        for (; i + 8 <= bytes; i += 8) {
            buffer.putLong(i, Samples.mix(seed + base + i));
        }
        for (; i < bytes; i++) {
            buffer.put(i, (byte) Samples.mix(seed + base + i));
        }
        return buffer;
    }
}
