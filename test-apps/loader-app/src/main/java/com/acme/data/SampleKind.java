package com.acme.data;

/**
 * How a sample is cut from its row group: a {@code ByteBuffer} slice of a heap row group (a view that
 * keeps the whole row group reachable), a slice of a direct row group, or a copy into its own
 * {@code byte[]}.
 */
public enum SampleKind {
    /** A heap {@code ByteBuffer} view of the row group. */
    SLICE,
    /** A direct {@code ByteBuffer} view of a direct row group. */
    DIRECT_SLICE,
    /** A copy of the sample's bytes into a fresh {@code byte[]}. */
    ARRAY;

    /** Returns the kind named {@code name} ({@code slice}, {@code direct-slice} or {@code array}). */
    public static SampleKind parse(String name) {
        switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "slice": return SLICE;
            case "direct-slice": return DIRECT_SLICE;
            case "array": return ARRAY;
            default: throw new IllegalArgumentException("sample-kind must be slice, array or direct-slice: " + name);
        }
    }

    /** Returns the option spelling of this kind. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
