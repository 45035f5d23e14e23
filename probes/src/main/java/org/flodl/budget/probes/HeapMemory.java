package org.flodl.budget.probes;

/**
 * One reading of the Java heap as the {@code heap} tier sees it.
 *
 * @param maxBytes the most the heap can grow to ({@code Runtime.maxMemory()}, {@code -Xmx})
 * @param liveBytes the heap in use right after the last collection (every heap pool, as the last GC
 *     left it), or {@code usedBytes} before the first collection
 * @param usedBytes the heap in use now, garbage included
 * @param afterGc whether {@code liveBytes} comes from a collection (false: the conservative current
 *     usage)
 * @param availableBytes {@code maxBytes − liveBytes}, saturated at 0
 */
public record HeapMemory(
    long maxBytes, long liveBytes, long usedBytes, boolean afterGc, long availableBytes) {}
