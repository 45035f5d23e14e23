package com.acme.data;

/**
 * A dataset of samples addressed by index: {@link #read(int)} returns one sample, a {@code byte[]} or a
 * {@code ByteBuffer} (possibly a view of a larger buffer). Implementations used by a
 * {@link PrefetchingLoader} are read from one thread at a time: the loader's worker, or the training
 * thread when the loader runs synchronously.
 */
public interface SampleSource {

    /** Returns the number of samples in the dataset. */
    int size();

    /** Returns sample {@code index}, reading it from the underlying storage if need be. */
    Object read(int index);
}
