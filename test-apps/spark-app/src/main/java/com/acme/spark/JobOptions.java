package com.acme.spark;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The job's options, parsed from {@code --key=value} arguments; sizes take binary suffixes ({@code 256K},
 * {@code 1M}). An unknown key, a missing {@code --loader-jar} or a bad value is an
 * {@link IllegalArgumentException} naming it.
 */
final class JobOptions {

    static final Map<String, String> DEFAULTS = new LinkedHashMap<>();

    static {
        DEFAULTS.put("loader-jar", "");
        DEFAULTS.put("master", "local[2]");
        DEFAULTS.put("partitions", "2");
        DEFAULTS.put("samples", "1000");
        DEFAULTS.put("sample-bytes", "256K");
        DEFAULTS.put("local-dir", System.getProperty("java.io.tmpdir"));
        DEFAULTS.put("pace-ms", "0");
    }

    final String loaderJar;
    final String master;
    final int partitions;
    final int samples;
    final int sampleBytes;
    final String localDir;
    final long paceMillis;

    private JobOptions(Map<String, String> v) {
        this.loaderJar = v.get("loader-jar");
        if (loaderJar.isEmpty()) {
            throw new IllegalArgumentException("--loader-jar=PATH (the loader app's jar) is required");
        }
        this.master = v.get("master");
        this.partitions = (int) positive(v, "partitions", number(v.get("partitions"), "partitions"));
        this.samples = (int) positive(v, "samples", number(v.get("samples"), "samples"));
        this.sampleBytes = (int) Math.min(Integer.MAX_VALUE - 64,
                positive(v, "sample-bytes", size(v.get("sample-bytes"))));
        this.localDir = v.get("local-dir");
        this.paceMillis = number(v.get("pace-ms"), "pace-ms");
        if (paceMillis < 0) {
            throw new IllegalArgumentException("pace-ms must not be negative, got '" + v.get("pace-ms") + "'");
        }
    }

    /** Returns the options of {@code args} over the defaults. */
    static JobOptions parse(String[] args) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --key=value, got '" + arg + "'");
            }
            String key = arg.substring(2, eq);
            if (!v.containsKey(key)) {
                throw new IllegalArgumentException("unknown option '" + key + "' (known: " + DEFAULTS.keySet() + ")");
            }
            v.put(key, arg.substring(eq + 1));
        }
        return new JobOptions(v);
    }

    private static long positive(Map<String, String> v, String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(key + " must be positive, got '" + v.get(key) + "'");
        }
        return value;
    }

    private static long number(String text, String key) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " expects a number, got '" + text + "'");
        }
    }

    /** Returns the bytes of a size with an optional binary suffix K, M or G. */
    static long size(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        int shift = 0;
        if (t.endsWith("K")) {
            shift = 10;
        } else if (t.endsWith("M")) {
            shift = 20;
        } else if (t.endsWith("G")) {
            shift = 30;
        }
        if (shift > 0) {
            t = t.substring(0, t.length() - 1);
        }
        return number(t, "sample-bytes") << shift;
    }
}
