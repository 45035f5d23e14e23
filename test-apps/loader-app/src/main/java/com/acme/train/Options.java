package com.acme.train;

import com.acme.data.SampleKind;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The training run's options, parsed from {@code --key=value} arguments; sizes take binary suffixes
 * ({@code 64K}, {@code 1M}, {@code 2G}). An unknown key or a bad value is an {@link IllegalArgumentException}
 * naming it.
 */
final class Options {

    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("sample-bytes", "64K");
        DEFAULTS.put("samples", "512");
        DEFAULTS.put("row-group-bytes", "8M");
        DEFAULTS.put("row-groups", "auto");
        DEFAULTS.put("open-row-groups", "1");
        DEFAULTS.put("epochs", "3");
        DEFAULTS.put("batch-size", "16");
        DEFAULTS.put("depth", "4");
        DEFAULTS.put("latency-us", "0");
        DEFAULTS.put("compute-us", "0");
        DEFAULTS.put("compute-iters", "-1");
        DEFAULTS.put("seed", "42");
        DEFAULTS.put("sample-kind", "array");
        DEFAULTS.put("shuffle", "true");
        DEFAULTS.put("cache", "true");
        DEFAULTS.put("cache-every", "1");
        DEFAULTS.put("cache-impl", "map");
        DEFAULTS.put("cache-weight", "0");
        DEFAULTS.put("report-memory", "false");
        DEFAULTS.put("evict-per-epoch", "0");
        DEFAULTS.put("evict-at-end", "true");
        DEFAULTS.put("linger", "false");
    }

    final int sampleBytes;
    final int samples;
    final long rowGroupBytes;
    final boolean directRowGroups;
    final int openRowGroups;
    final int epochs;
    final int batchSize;
    final int depth;
    final long latencyMicros;
    final long computeMicros;
    final long computeIters;
    final long seed;
    final SampleKind sampleKind;
    final String shuffle;
    final boolean cache;
    final int cacheEvery;
    final String cacheImpl;
    final long cacheWeight;
    final boolean reportMemory;
    final int evictPerEpoch;
    final boolean evictAtEnd;
    final boolean linger;
    private final Map<String, String> values;

    private Options(Map<String, String> v) {
        this.values = v;
        this.sampleBytes = (int) Math.min(Integer.MAX_VALUE - 64, size(v, "sample-bytes"));
        this.samples = (int) number(v, "samples");
        this.rowGroupBytes = size(v, "row-group-bytes");
        this.sampleKind = SampleKind.parse(v.get("sample-kind"));
        String rowGroups = v.get("row-groups").toLowerCase(Locale.ROOT);
        switch (rowGroups) {
            case "auto": this.directRowGroups = sampleKind == SampleKind.DIRECT_SLICE; break;
            case "heap": this.directRowGroups = false; break;
            case "direct": this.directRowGroups = true; break;
            default: throw new IllegalArgumentException("row-groups must be auto, heap or direct: " + rowGroups);
        }
        if (sampleKind == SampleKind.DIRECT_SLICE && !directRowGroups) {
            throw new IllegalArgumentException("sample-kind=direct-slice needs row-groups=direct (or auto)");
        }
        if (sampleKind == SampleKind.SLICE && directRowGroups) {
            throw new IllegalArgumentException("sample-kind=slice cuts heap row groups: use direct-slice for direct ones");
        }
        this.openRowGroups = (int) number(v, "open-row-groups");
        this.epochs = (int) number(v, "epochs");
        this.batchSize = (int) number(v, "batch-size");
        this.depth = (int) number(v, "depth");
        this.latencyMicros = number(v, "latency-us");
        this.computeMicros = number(v, "compute-us");
        this.computeIters = Long.parseLong(v.get("compute-iters").trim());
        this.seed = Long.parseLong(v.get("seed").trim());
        this.shuffle = v.get("shuffle").toLowerCase(Locale.ROOT);
        if (!shuffle.equals("true") && !shuffle.equals("false") && !shuffle.equals("global")) {
            throw new IllegalArgumentException("shuffle must be true (row groups shuffled, then samples within each), global or false: " + shuffle);
        }
        this.cache = bool(v, "cache");
        this.cacheEvery = (int) number(v, "cache-every");
        this.cacheImpl = v.get("cache-impl").trim().toLowerCase(Locale.ROOT);
        this.cacheWeight = size(v, "cache-weight");
        this.reportMemory = bool(v, "report-memory");
        if (cacheEvery <= 0) {
            throw new IllegalArgumentException("--cache-every must be at least 1");
        }
        this.evictPerEpoch = (int) number(v, "evict-per-epoch");
        this.evictAtEnd = bool(v, "evict-at-end");
        this.linger = bool(v, "linger");
        if (samples <= 0 || sampleBytes <= 0 || epochs <= 0 || batchSize <= 0) {
            throw new IllegalArgumentException("samples, sample-bytes, epochs and batch-size must be positive");
        }
    }

    /** Returns the options given by {@code args} over the defaults. */
    static Options parse(String[] args) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        for (String arg : args) {
            if (!arg.startsWith("--") || arg.indexOf('=') < 3) {
                throw new IllegalArgumentException("expected --key=value, got: " + arg);
            }
            String key = arg.substring(2, arg.indexOf('=')).trim();
            if (!DEFAULTS.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key + " (known: " + String.join(", ", DEFAULTS.keySet()) + ")");
            }
            v.put(key, arg.substring(arg.indexOf('=') + 1).trim());
        }
        return new Options(v);
    }

    /** Returns the effective options as one {@code key=value} line. */
    String describe() {
        StringBuilder sb = new StringBuilder("config");
        values.forEach((k, val) -> sb.append(' ').append(k).append('=').append(val));
        return sb.toString();
    }

    /** Returns a non-negative size with an optional binary suffix K, M or G. */
    static long size(Map<String, String> v, String key) {
        String s = v.get(key).trim().toUpperCase(Locale.ROOT);
        if (s.endsWith("B")) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (s.endsWith("K")) {
            shift = 10;
        } else if (s.endsWith("M")) {
            shift = 20;
        } else if (s.endsWith("G")) {
            shift = 30;
        }
        if (shift > 0) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s.trim());
            if (n < 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a size like 64K, 1M: " + v.get(key));
        }
    }

    private static long number(Map<String, String> v, String key) {
        try {
            long n = Long.parseLong(v.get(key).trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a non-negative integer: " + v.get(key));
        }
    }

    private static boolean bool(Map<String, String> v, String key) {
        String s = v.get(key).trim().toLowerCase(Locale.ROOT);
        if (!s.equals("true") && !s.equals("false")) {
            throw new IllegalArgumentException("--" + key + " must be true or false: " + v.get(key));
        }
        return s.equals("true");
    }
}
