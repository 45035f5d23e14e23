package com.acme.train;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Paths;

/**
 * What the process holds, measured after a full GC: live heap, direct buffer bytes and resident set
 * size, as {@code heapLive=… directUsed=… rss=…} (bytes; -1 where unknown). Plain JDK management
 * beans and {@code /proc/self/status}: a test reads it to see what the cache really pins.
 */
final class MemoryReport {

    private MemoryReport() {
    }

    /**
     * Returns the {@code key=value} report, after asking for a full GC twice: a direct buffer's
     * memory is freed by its cleaner thread after the first collection found the buffer
     * unreachable, so the second pass counts only what is still reachable.
     */
    static String afterGc() {
        System.gc();
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        System.gc();
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = -1;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                direct = pool.getMemoryUsed();
            }
        }
        return "heapLive=" + heap + " directUsed=" + direct + " rss=" + rss();
    }

    private static long rss() {
        return status("VmRSS:");
    }

    /** Returns the process's peak resident set size in bytes ({@code VmHWM}), -1 where unknown. */
    static long peakRss() {
        return status("VmHWM:");
    }

    private static long status(String field) {
        try {
            for (String line : Files.readAllLines(Paths.get("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    String[] parts = line.substring(field.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
