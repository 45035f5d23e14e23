package org.flodl.budget.agent.guava;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.util.concurrent.locks.Lock;
import org.flodl.budget.agent.library.Bound;
import org.flodl.budget.agent.library.Reflect;

/**
 * A Guava cache's size bound ({@code maximumSize} or {@code maximumWeight}), kept by each segment
 * of its {@code LocalCache} as {@code maxSegmentWeight}: moved by giving each segment its share, as
 * {@code LocalCache}'s constructor divides the maximum, under the segment's own lock. Guava then
 * evicts at the segment's next write, least recently used first, with cause {@code SIZE}, and tells
 * its removal listener on the writing thread, as it does for its own bound. A cache built without a
 * bound keeps no order to evict by: it has no bound to steer.
 */
final class GuavaBound implements Bound {
  /** The fields of a {@code LocalCache} and of its segments, found once per class. */
  record Fields(Field maxWeight, Field segments, Field segmentMax, Field weight, Field count) {
    static Fields of(Class<?> local) {
      Field maxWeight = Reflect.field(local, "maxWeight");
      Field segments = Reflect.field(local, "segments");
      if (maxWeight == null || segments == null) {
        return null;
      }
      Class<?> segment = segments.getType().getComponentType();
      Field segmentMax = Reflect.field(segment, "maxSegmentWeight");
      Field weight = Reflect.field(segment, "totalWeight");
      Field count = Reflect.field(segment, "count");
      return segmentMax == null || weight == null || count == null
          ? null
          : new Fields(maxWeight, segments, segmentMax, weight, count);
    }
  }

  private final Object local;
  private final Fields f;
  private final Object[] segments;

  /** Each segment's share as the cache was built: given back exactly. */
  private final long[] own;

  private final long ownSum;

  private GuavaBound(Object local, Fields f, Object[] segments) throws IllegalAccessException {
    this.local = local;
    this.f = f;
    this.segments = segments;
    this.own = new long[segments.length];
    long sum = 0;
    for (int i = 0; i < segments.length; i++) {
      own[i] = f.segmentMax().getLong(segments[i]);
      sum += own[i];
    }
    this.ownSum = sum;
  }

  /** Returns the bound of {@code local}, or null where it was built without one. */
  static Bound of(Object local, Fields f) throws ReflectiveOperationException {
    if (f == null || f.maxWeight().getLong(local) < 0) {
      return null;
    }
    Object array = f.segments().get(local);
    Object[] segments = new Object[Array.getLength(array)];
    for (int i = 0; i < segments.length; i++) {
      segments[i] = Array.get(array, i);
    }
    return new GuavaBound(local, f, segments);
  }

  @Override
  public Object cache() {
    return local;
  }

  @Override
  public long maximum() throws IllegalAccessException {
    return sum(f.segmentMax());
  }

  @Override
  public long size() throws IllegalAccessException {
    return sum(f.weight()); // read without the lock: an estimate, as the bound's units
  }

  @Override
  public long entries() throws IllegalAccessException {
    return sum(f.count());
  }

  /** Returns the sum over the segments of the number field {@code field} (long or int). */
  private long sum(Field field) throws IllegalAccessException {
    long sum = 0;
    for (Object s : segments) {
      sum += field.getLong(s); // an int field widens
    }
    return sum;
  }

  @Override
  public long least() {
    return segments.length; // each segment keeps its newest entry
  }

  @Override
  public void set(long maximum) throws IllegalAccessException {
    long m = Math.max(maximum, segments.length);
    long each = m / segments.length;
    long remainder = m % segments.length;
    for (int i = 0; i < segments.length; i++) {
      Lock lock = (Lock) segments[i]; // a segment is its own lock
      lock.lock();
      try {
        f.segmentMax().setLong(segments[i], m == ownSum ? own[i] : each + (i < remainder ? 1 : 0));
      } finally {
        lock.unlock();
      }
    }
  }
}
