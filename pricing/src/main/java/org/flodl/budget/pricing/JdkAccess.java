package org.flodl.budget.pricing;

import java.io.FileDescriptor;
import java.lang.instrument.Instrumentation;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.Buffer;
import java.nio.MappedByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the pricer may see inside {@code java.base}, found once when a pricer is made: the owner of
 * a direct buffer's memory ({@code sun.nio.ch.DirectBuffer#attachment()}, needs {@code sun.nio.ch}
 * exported to the pricer's module), and, with {@code java.nio} open to it, whether a mapped buffer
 * is file-backed and the backing array of a heap buffer that will not show it (read-only buffers,
 * typed views of byte buffers). What is missing is said in {@link #limitation()}; the pricer then
 * charges the capacity it can see.
 */
final class JdkAccess {
  private static final MethodType OBJECT_GETTER = MethodType.methodType(Object.class, Object.class);

  /** The JDK's memory segments' internals (JDK 22+), which a library's pricer reads. */
  private static final String FOREIGN = "jdk.internal.foreign";

  /** {@code (Object)Object}: the attachment of a {@code sun.nio.ch.DirectBuffer}, or null. */
  final MethodHandle attachment;

  /** {@code sun.nio.ch.DirectBuffer}, or null. */
  final Class<?> directBuffer;

  /** {@code (Object)Object}: {@code MappedByteBuffer.fd}, or null. */
  final MethodHandle mappedFd;

  /** {@code (Object)Object}: {@code Buffer.segment}, the memory segment a buffer was made from. */
  final MethodHandle segment;

  /**
   * This module's own full-privilege lookup, to make private lookups in {@code java.nio} from; null
   * when {@code java.nio} is not open to this module.
   */
  final MethodHandles.Lookup nio;

  /**
   * The same lookup, when {@code java.util} and {@code java.lang} are open to this module too: the
   * pricer then sees the arrays inside the JDK's collections and a String's bytes; null otherwise.
   */
  final MethodHandles.Lookup internals;

  private final String limitation;

  private JdkAccess(
      MethodHandle attachment,
      Class<?> directBuffer,
      MethodHandle mappedFd,
      MethodHandle segment,
      MethodHandles.Lookup nio,
      MethodHandles.Lookup internals,
      String limitation) {
    this.attachment = attachment;
    this.directBuffer = directBuffer;
    this.mappedFd = mappedFd;
    this.segment = segment;
    this.nio = nio;
    this.internals = internals;
    this.limitation = limitation;
  }

  /** Returns what this module may see now. */
  static JdkAccess detect() {
    return detect(null);
  }

  /**
   * Returns what this module may see now; {@code grantFailure} says why a grant failed, or null.
   */
  static JdkAccess detect(String grantFailure) {
    Module self = JdkAccess.class.getModule();
    Module base = Object.class.getModule();
    List<String> missing = new ArrayList<>(2);
    MethodHandle attachment = null;
    Class<?> directBuffer = null;
    if (base.isExported("sun.nio.ch", self)) {
      try {
        directBuffer = Class.forName("sun.nio.ch.DirectBuffer", false, null);
        attachment =
            MethodHandles.lookup()
                .findVirtual(directBuffer, "attachment", MethodType.methodType(Object.class))
                .asType(OBJECT_GETTER);
      } catch (ReflectiveOperationException | RuntimeException e) {
        directBuffer = null;
        missing.add("sun.nio.ch.DirectBuffer#attachment() unusable (" + e + ")");
      }
    } else {
      missing.add("java.base does not export sun.nio.ch to " + self);
    }
    MethodHandle mappedFd = null;
    MethodHandle segment = null;
    MethodHandles.Lookup nio = null;
    if (base.isOpen("java.nio", self)) {
      try {
        nio = MethodHandles.lookup();
        mappedFd =
            MethodHandles.privateLookupIn(MappedByteBuffer.class, nio)
                .findGetter(MappedByteBuffer.class, "fd", FileDescriptor.class)
                .asType(OBJECT_GETTER);
      } catch (ReflectiveOperationException | RuntimeException e) {
        nio = null;
        missing.add("java.nio internals unusable (" + e + ")");
      }
      segment = segmentGetter(nio);
    } else {
      missing.add("java.base does not open java.nio to " + self);
    }
    MethodHandles.Lookup internals =
        base.isOpen("java.util", self) && base.isOpen("java.lang", self)
            ? MethodHandles.lookup()
            : null;
    if (!missing.isEmpty() && grantFailure != null) {
      missing.add("granting access failed: " + grantFailure);
    }
    String limitation =
        missing.isEmpty()
            ? null
            : "retention pricing is partial: "
                + String.join("; ", missing)
                + " -- direct views are charged the capacity they show (not the buffer that owns"
                + " their memory), mapped buffers are priced as direct, and read-only heap buffers"
                + " and typed views of heap byte buffers are charged their capacity; grant access"
                + " with RetentionPricer.grantJdkAccess(Instrumentation)";
    return new JdkAccess(attachment, directBuffer, mappedFd, segment, nio, internals, limitation);
  }

  /**
   * Exports {@code sun.nio.ch} and opens {@code java.nio}, {@code java.util} and {@code java.lang}
   * to this module (to read, never to write: a buffer's owner, a collection's backing array, a
   * String's bytes), and on JDK 22+ {@code jdk.internal.foreign} and {@code sun.nio.ch} (what a
   * memory segment keeps alive, a mapping's size); returns null, or why it could not.
   */
  static String grant(Instrumentation inst) {
    if (inst == null) {
      return "no Instrumentation";
    }
    Module self = JdkAccess.class.getModule();
    Module base = Object.class.getModule();
    try {
      if (!inst.isModifiableModule(base)) {
        return "java.base is not modifiable";
      }
      Map<String, Set<Module>> opens = new java.util.HashMap<>();
      for (String pkg : new String[] {"java.nio", "java.util", "java.lang"}) {
        opens.put(pkg, Set.of(self));
      }
      if (base.getPackages().contains(FOREIGN)) {
        // JDK 22+: what a memory segment keeps alive, and the size of a file mapping
        opens.put(FOREIGN, Set.of(self));
        opens.put("sun.nio.ch", Set.of(self));
      }
      inst.redefineModule(
          base, Set.of(), Map.of("sun.nio.ch", Set.of(self)), opens, Set.of(), Map.of());
      return null;
    } catch (RuntimeException e) {
      return "redefineModule failed: " + e;
    }
  }

  /**
   * Returns the getter of {@code Buffer.segment} on JDK 22+ (where {@code MemorySegment} is final:
   * before, it holds an incubator's segment, no application's), or null where it cannot be read.
   */
  private static MethodHandle segmentGetter(MethodHandles.Lookup nio) {
    if (nio == null || Runtime.version().feature() < 22) {
      return null;
    }
    try {
      java.lang.reflect.Field f = Buffer.class.getDeclaredField("segment");
      return MethodHandles.privateLookupIn(Buffer.class, nio)
          .unreflectGetter(f)
          .asType(OBJECT_GETTER);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null; // a JDK without it: no buffer is made from a segment there
    }
  }

  /**
   * Returns the memory segment {@code b} was made from ({@code segment.asByteBuffer()}, Netty 4.2's
   * direct buffers on JDK 25), or null: none, or it cannot be seen.
   */
  Object segmentOf(Buffer b) {
    if (segment == null) {
      return null;
    }
    try {
      return (Object) segment.invokeExact((Object) b);
    } catch (Throwable t) {
      return null;
    }
  }

  /** Returns null when everything is visible, else one line saying what is not. */
  String limitation() {
    return limitation;
  }

  /**
   * Returns the buffer that owns {@code direct}'s memory ({@code direct} itself when it is the
   * owner), or null when that cannot be seen. The JDK points every slice, duplicate and typed view
   * straight at the root buffer (it never chains), so one call suffices; memory owned by something
   * that is not a buffer (a JNI object, a memory segment) leaves {@code direct} as far as we see.
   */
  Object directOwner(Buffer direct) {
    if (attachment == null || !directBuffer.isInstance(direct)) {
      return null;
    }
    try {
      Object owner = (Object) attachment.invokeExact((Object) direct);
      return owner != null && directBuffer.isInstance(owner) ? owner : direct;
    } catch (Throwable t) {
      return null;
    }
  }

  /** Returns whether {@code buffer} is a file mapping; false when that cannot be seen. */
  boolean fileMapped(Object buffer) {
    if (mappedFd == null || !(buffer instanceof MappedByteBuffer)) {
      return false;
    }
    try {
      return (Object) mappedFd.invokeExact(buffer) != null;
    } catch (Throwable t) {
      return false;
    }
  }
}
