package com.acme.data;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * One batch handed to training: the samples (each a {@code byte[]} or a {@code ByteBuffer}) with their
 * sample ids, in the loader's order. A batch is a read-only {@code List} of its samples.
 */
public final class Batch extends AbstractList<Object> implements RandomAccess {

    private final int index;
    private final int[] ids;
    private final Object[] samples;

    /** Creates batch number {@code index} of the epoch holding {@code samples[i]} for sample {@code ids[i]}. */
    public Batch(int index, int[] ids, Object[] samples) {
        if (ids.length != samples.length) {
            throw new IllegalArgumentException("ids and samples differ in length");
        }
        this.index = index;
        this.ids = ids;
        this.samples = samples;
    }

    /** Returns the batch's position in its epoch, from 0. */
    public int index() {
        return index;
    }

    /** Returns the sample id of the {@code i}-th sample. */
    public int id(int i) {
        return ids[i];
    }

    @Override
    public Object get(int i) {
        return samples[i];
    }

    @Override
    public int size() {
        return samples.length;
    }

    /** Returns the total bytes of the batch's samples. */
    public long bytes() {
        long total = 0;
        for (Object s : samples) {
            total += Samples.length(s);
        }
        return total;
    }
}
