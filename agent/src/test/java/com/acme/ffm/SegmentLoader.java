package com.acme.ffm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * A loader whose samples are memory segments (JDK 22+), as new Java code holds memory off the heap,
 * cached in a map by {@link SegmentCache#keep}, which a hand-written call site budgets. It calls
 * the FFM API through method handles, so that it compiles for Java 17. {@code --shape=}:
 *
 * <ul>
 *   <li>{@code auto-slice}: a 1 KiB slice of a 16 MiB row group its own {@code Arena.ofAuto()}
 *       allocates (the slice keeps the row group alive);
 *   <li>{@code auto}: a 1 MiB segment of its own {@code Arena.ofAuto()};
 *   <li>{@code heap-slice}: a 1 KiB slice of {@code MemorySegment.ofArray(new byte[16 MiB])};
 *   <li>{@code shared-slice}: a 1 KiB slice of a 4 MiB row group of its own {@code
 *       Arena.ofShared()}, never closed;
 *   <li>{@code mapped-slice}: a 1 KiB slice of one 64 MiB file mapped whole into an automatic
 *       arena.
 * </ul>
 *
 * <p>{@code --samples}, {@code --epochs}. Prints {@code LOADS=}, {@code DELIVERED=}, {@code
 * CHECKSUM=}, {@code CACHED=}, {@code HITS=} (the last epoch's samples found in the cache) and
 * {@code DONE}.
 */
public final class SegmentLoader {
  private static final long ROW_GROUP = 16L << 20;
  private static final long SLICE = 1024;

  private SegmentLoader() {}

  /** The cache: a map of segments (as {@code Object}: this class compiles for Java 17). */
  public static final class SegmentCache {
    private final Map<Integer, Object> samples = new ConcurrentHashMap<>();

    /** Caches sample {@code k}. */
    public void keep(int k, Object segment) {
      samples.put(k, segment);
    }

    /** Returns the cached sample {@code k}, or null. */
    public Object get(int k) {
      return samples.get(k);
    }

    int size() {
      return samples.size();
    }
  }

  /** The FFM API, found by name on the running JDK. */
  static final class Ffm {
    final MethodHandle ofAuto;
    final MethodHandle ofShared;
    final MethodHandle allocate;
    final MethodHandle asSlice;
    final MethodHandle ofArray;
    final MethodHandle asByteBuffer;
    final MethodHandle map;

    Ffm() throws ReflectiveOperationException {
      MethodHandles.Lookup l = MethodHandles.publicLookup();
      Class<?> arena = Class.forName("java.lang.foreign.Arena");
      Class<?> segment = Class.forName("java.lang.foreign.MemorySegment");
      Class<?> allocator = Class.forName("java.lang.foreign.SegmentAllocator");
      ofAuto = l.findStatic(arena, "ofAuto", MethodType.methodType(arena));
      ofShared = l.findStatic(arena, "ofShared", MethodType.methodType(arena));
      allocate = l.findVirtual(allocator, "allocate", MethodType.methodType(segment, long.class));
      asSlice =
          l.findVirtual(segment, "asSlice", MethodType.methodType(segment, long.class, long.class));
      ofArray = l.findStatic(segment, "ofArray", MethodType.methodType(segment, byte[].class));
      asByteBuffer =
          l.findVirtual(segment, "asByteBuffer", MethodType.methodType(ByteBuffer.class));
      map =
          l.findVirtual(
              FileChannel.class,
              "map",
              MethodType.methodType(
                  segment, FileChannel.MapMode.class, long.class, long.class, arena));
    }
  }

  public static void main(String[] args) throws Throwable {
    String shape = "auto-slice";
    int samples = 64;
    int epochs = 2;
    for (String a : args) {
      String v = a.substring(a.indexOf('=') + 1);
      if (a.startsWith("--shape=")) {
        shape = v;
      } else if (a.startsWith("--samples=")) {
        samples = Integer.parseInt(v);
      } else if (a.startsWith("--epochs=")) {
        epochs = Integer.parseInt(v);
      } else {
        throw new IllegalArgumentException(a);
      }
    }
    Ffm ffm = new Ffm();
    Object mapping = shape.equals("mapped-slice") ? mapping(ffm, samples) : null;
    SegmentCache cache = new SegmentCache();
    long loads = 0;
    long delivered = 0;
    long checksum = 0;
    long hits = 0;
    for (int e = 0; e < epochs; e++) {
      for (int i = 0; i < samples; i++) {
        int k = (int) ((i * 7919L + e * 31L) % samples);
        Object s = cache.get(k);
        if (s != null && e == epochs - 1) {
          hits++;
        }
        if (s == null) {
          s = load(ffm, shape, k, mapping);
          loads++;
          cache.keep(k, s);
        }
        checksum = checksum * 31 + train(ffm, k, s);
        delivered++;
      }
    }
    System.out.println("LOADS=" + loads);
    System.out.println("DELIVERED=" + delivered);
    System.out.println("CHECKSUM=" + checksum);
    System.out.println("CACHED=" + cache.size());
    System.out.println("HITS=" + hits);
    System.out.println("DONE");
  }

  /** Returns sample {@code k} of {@code shape}: its first bytes are the key's, every time. */
  static Object load(Ffm ffm, String shape, int k, Object mapping) throws Throwable {
    Object sample;
    switch (shape) {
      case "auto-slice" -> {
        Object rowGroup = (Object) ffm.allocate.invoke(ffm.ofAuto.invoke(), ROW_GROUP);
        sample = ffm.asSlice.invoke(rowGroup, 0L, SLICE);
      }
      case "auto" -> sample = ffm.allocate.invoke(ffm.ofAuto.invoke(), 1L << 20);
      case "heap-slice" ->
          sample = ffm.asSlice.invoke(ffm.ofArray.invoke(new byte[(int) ROW_GROUP]), 0L, SLICE);
      case "shared-slice" -> {
        Object rowGroup = (Object) ffm.allocate.invoke(ffm.ofShared.invoke(), 4L << 20);
        sample = ffm.asSlice.invoke(rowGroup, 0L, SLICE);
      }
      case "mapped-slice" -> {
        return ffm.asSlice.invoke(mapping, k * SLICE, SLICE); // the file holds the key's bytes
      }
      default -> throw new IllegalArgumentException(shape);
    }
    ByteBuffer b = (ByteBuffer) ffm.asByteBuffer.invoke(sample);
    for (int i = 0; i < 64; i++) {
      b.put(i, (byte) (k * 31 + i));
    }
    return sample;
  }

  /** Returns one file of 64 MiB mapped whole into an automatic arena, its slices the keys'. */
  static Object mapping(Ffm ffm, int samples) throws Throwable {
    Path file = Files.createTempFile("segments", ".bin");
    file.toFile().deleteOnExit();
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer slice = ByteBuffer.allocate((int) SLICE);
      for (int k = 0; k < samples; k++) {
        slice.clear();
        for (int i = 0; i < 64; i++) {
          slice.put(i, (byte) (k * 31 + i));
        }
        ch.write(slice, k * SLICE);
      }
      ch.write(ByteBuffer.allocate(1), (64L << 20) - 1);
      return ffm.map.invoke(ch, FileChannel.MapMode.READ_ONLY, 0L, 64L << 20, ffm.ofAuto.invoke());
    }
  }

  private static long train(Ffm ffm, int k, Object sample) throws Throwable {
    ByteBuffer b = (ByteBuffer) ffm.asByteBuffer.invoke(sample);
    CRC32 crc = new CRC32();
    for (int i = 0; i < 64; i++) {
      crc.update(b.get(i));
    }
    return crc.getValue() ^ ((long) k << 32);
  }
}
