package org.flodl.budget.policy;

/**
 * A stager budget split 3:1 between the pinned tier and the flow window; the remainder of the
 * division goes to the pinned tier, so {@code pinnedBytes + streamBytes == totalBytes}.
 */
public record StagerSplit(long totalBytes, long pinnedBytes, long streamBytes) {}
