package org.flodl.budget.probes;

/**
 * One reading of the {@code direct} tier.
 *
 * @param usedBytes what direct ByteBuffers hold now ({@code BufferPoolMXBean("direct")})
 * @param maxBytes the JVM's limit on them ({@code -XX:MaxDirectMemorySize}, or the JDK's default,
 *     the max heap, when unset)
 * @param availableBytes {@code maxBytes − usedBytes}, and never more than host RAM's available
 *     bytes when those are known
 */
public record DirectMemory(long usedBytes, long maxBytes, long availableBytes) {}
