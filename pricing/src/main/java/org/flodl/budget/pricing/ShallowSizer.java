package org.flodl.budget.pricing;

import java.lang.instrument.Instrumentation;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

/**
 * The shallow size of a value the pricer knows nothing else about: {@link
 * Instrumentation#getObjectSize} when the agent passed its Instrumentation, else a rough estimate
 * per class (a 16-byte header, every instance field of the class and its superclasses at its
 * primitive width or 8 bytes a reference, rounded up to 8), which {@link #limitation()} says.
 */
final class ShallowSizer {
  static final long HEADER_BYTES = 16;

  static final long REFERENCE_BYTES = 8;

  private final Instrumentation inst;

  private final ClassValue<Long> estimates =
      new ClassValue<>() {
        @Override
        protected Long computeValue(Class<?> type) {
          return estimate(type);
        }
      };

  ShallowSizer(Instrumentation inst) {
    this.inst = inst;
  }

  /** Returns the shallow size of {@code value} in bytes. */
  long size(Object value) {
    if (inst != null) {
      try {
        return inst.getObjectSize(value);
      } catch (RuntimeException e) {
        // fall through to the estimate
      }
    }
    return estimates.get(value.getClass());
  }

  /** Returns null with Instrumentation, else the line that says sizes are estimated. */
  String limitation() {
    return inst != null
        ? null
        : "no Instrumentation: values of other types are priced by an estimated shallow size"
            + " (16-byte header + fields)";
  }

  /** Returns the field-count estimate for instances of {@code type}. */
  static long estimate(Class<?> type) {
    long bytes = HEADER_BYTES;
    try {
      for (Class<?> c = type; c != null; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers())) {
            continue;
          }
          Class<?> t = f.getType();
          if (!t.isPrimitive()) {
            bytes += REFERENCE_BYTES;
          } else if (t == long.class || t == double.class) {
            bytes += 8;
          } else if (t == int.class || t == float.class) {
            bytes += 4;
          } else if (t == short.class || t == char.class) {
            bytes += 2;
          } else {
            bytes += 1;
          }
        }
      }
    } catch (RuntimeException | LinkageError e) {
      // what was counted so far stands
    }
    return (bytes + 7) & ~7L;
  }
}
