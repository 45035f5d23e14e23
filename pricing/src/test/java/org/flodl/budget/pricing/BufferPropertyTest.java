package org.flodl.budget.pricing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.policy.Tier;
import org.junit.jupiter.api.Test;

/**
 * For random buffers (every element type, heap and direct, both byte orders, own arrays and typed
 * views of byte buffers) reshaped by random slices, duplicates, read-only views and position and
 * limit moves: the charge is never below the logical bytes and follows the slack rule over the
 * owner's whole storage; the estimate and the retain agree; a materialized copy is of the same
 * kind, order, position, limit and read-only-ness, byte-equal to its view on every absolute and
 * relative read, owns its storage, and does not change when its owner is overwritten.
 */
class BufferPropertyTest {
  private static final int CASES = 2000;

  private final List<String> notices = new ArrayList<>();
  private final RetentionPricer pricer =
      new RetentionPricer(null, List.of(), JdkAccess.detect(), notices::add);

  /** A random owner, the bytes it owns, and a random view of it. */
  private static final class Case {
    Buffer owner;
    long ownerBytes;
    Buffer view;
    final StringBuilder how = new StringBuilder();
  }

  private static Case randomCase(Random r) {
    Case c = new Case();
    BufferType type = BufferType.values()[r.nextInt(BufferType.values().length)];
    boolean direct = r.nextBoolean();
    ByteOrder order = r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    int bytes = 8 * (1 + r.nextInt(r.nextBoolean() ? 16 : 600));
    if (!direct && type != BufferType.BYTE && r.nextBoolean()) {
      c.owner = Buffers.heapArray(type, bytes / type.elementBytes);
      c.how.append(type).append(".allocate(").append(bytes / type.elementBytes).append(')');
    } else {
      ByteBuffer b = direct ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
      b.order(order);
      c.owner = Buffers.typed(b, type);
      c.how
          .append(direct ? "allocateDirect(" : "allocate(")
          .append(bytes)
          .append(").order(")
          .append(order)
          .append(").as ")
          .append(type);
    }
    c.ownerBytes = bytes;
    byte[] fill = new byte[c.owner.capacity() * type.elementBytes];
    r.nextBytes(fill);
    for (int i = 0; i < c.owner.capacity(); i++) {
      long v = 0;
      for (int k = 0; k < type.elementBytes; k++) {
        v = (v << 8) | (fill[i * type.elementBytes + k] & 0xff);
      }
      set(c.owner, i, v);
    }
    Buffer view = c.owner;
    int ops = r.nextInt(4);
    for (int k = 0; k < ops; k++) {
      int cap = view.capacity();
      switch (r.nextInt(5)) {
        case 0:
          {
            int lim = view.limit(); // slice(index, length) is bounded by the limit
            int from = r.nextInt(lim + 1);
            int len = r.nextInt(lim - from + 1);
            view = view.slice(from, len);
            c.how.append(".slice(").append(from).append(',').append(len).append(')');
            break;
          }
        case 1:
          {
            int pos = r.nextInt(cap + 1);
            int lim = pos + r.nextInt(cap - pos + 1);
            view = view.duplicate().limit(lim).position(pos).slice();
            c.how.append(".window(").append(pos).append(',').append(lim).append(").slice()");
            break;
          }
        case 2:
          view = view.duplicate();
          c.how.append(".duplicate()");
          break;
        case 3:
          view = Buffers.readOnly(view);
          c.how.append(".asReadOnlyBuffer()");
          break;
        default:
          {
            int lim = r.nextInt(cap + 1);
            int pos = r.nextInt(lim + 1);
            view.limit(lim).position(pos);
            c.how.append(".limit(").append(lim).append(").position(").append(pos).append(')');
          }
      }
    }
    if (view instanceof ByteBuffer && r.nextBoolean()) {
      ((ByteBuffer) view).order(r.nextBoolean() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
      c.how.append(".order(").append(((ByteBuffer) view).order()).append(')');
    }
    c.view = view;
    return c;
  }

  private static void set(Buffer b, int i, long v) {
    {
      if (b instanceof ByteBuffer) {
        ((ByteBuffer) b).put(i, (byte) v);
      } else if (b instanceof java.nio.CharBuffer) {
        ((java.nio.CharBuffer) b).put(i, (char) v);
      } else if (b instanceof java.nio.ShortBuffer) {
        ((java.nio.ShortBuffer) b).put(i, (short) v);
      } else if (b instanceof java.nio.IntBuffer) {
        ((java.nio.IntBuffer) b).put(i, (int) v);
      } else if (b instanceof java.nio.LongBuffer) {
        ((java.nio.LongBuffer) b).put(i, v);
      } else if (b instanceof java.nio.FloatBuffer) {
        ((java.nio.FloatBuffer) b).put(i, Float.intBitsToFloat((int) v));
      } else {
        ((java.nio.DoubleBuffer) b).put(i, Double.longBitsToDouble(v));
      }
    }
  }

  @Test
  void viewsAreChargedTheirPinAndCopiesEqualTheirViews() throws RetentionException {
    int copies = 0;
    for (int n = 0; n < CASES; n++) {
      long seed = 0x5eed_0000L + n;
      Case c = randomCase(new Random(seed));
      String what = "seed " + seed + ": " + c.how;
      Buffer view = c.view;
      int elementBytes = pricer.kind(view).elementBytes;
      long logical = (long) view.capacity() * elementBytes;

      Priced estimate = pricer.estimate(view);
      assertEquals(view.isDirect() ? Tier.DIRECT : Tier.HEAP, estimate.tier(), what);
      assertEquals(logical, estimate.logicalBytes(), what);
      assertEquals(c.ownerBytes, estimate.storageBytes(), what);
      assertTrue(estimate.chargedBytes() >= estimate.logicalBytes(), what);
      assertEquals(BudgetPolicy.retainedCost(logical, c.ownerBytes), estimate.chargedBytes(), what);
      assertEquals(
          BudgetPolicy.shouldMaterialize(logical, c.ownerBytes), estimate.materialize(), what);

      long[] all = Buffers.all(view);
      long[] remaining = Buffers.remaining(view);
      int position = view.position();
      int limit = view.limit();
      Retained kept = pricer.retain(view);
      assertEquals(estimate, kept.price(), what);
      assertEquals(estimate.materialize(), kept.materialized(), what);
      assertEquals(position, view.position(), "pricing moved the view: " + what);
      assertEquals(limit, view.limit(), "pricing moved the view: " + what);
      if (!kept.materialized()) {
        assertSame(view, kept.value(), what);
        continue;
      }
      copies++;
      Buffer copy = (Buffer) kept.value();
      assertNotSame(view, copy, what);
      assertEquals(view.isDirect(), copy.isDirect(), what);
      assertEquals(view.isReadOnly(), copy.isReadOnly(), what);
      assertEquals(Buffers.order(view), Buffers.order(copy), what);
      assertEquals(view.capacity(), copy.capacity(), what);
      assertEquals(position, copy.position(), what);
      assertEquals(limit, copy.limit(), what);
      assertTrue(BufferType.of(view.getClass()).type.isInstance(copy), what);
      assertArrayEquals(all, Buffers.all(copy), what);
      assertArrayEquals(remaining, Buffers.remaining(copy), what);
      if (view instanceof ByteBuffer) {
        ByteBuffer v = (ByteBuffer) view;
        ByteBuffer k = (ByteBuffer) copy;
        for (int i = 0; i + 8 <= v.limit(); i += 3) {
          assertEquals(v.getLong(i), k.getLong(i), what);
        }
      }
      Priced copyPrice = pricer.estimate(copy);
      assertEquals(logical, copyPrice.storageBytes(), "the copy owns its storage: " + what);
      assertEquals(logical, copyPrice.chargedBytes(), what);
      assertFalse(copyPrice.materialize(), what);

      // Independent of its owner: overwrite the owner; the view sees it, the copy does not.
      Buffers.invert(c.owner);
      assertArrayEquals(all, Buffers.all(copy), "the copy followed its owner: " + what);
      if (view.capacity() > 0) {
        assertFalse(java.util.Arrays.equals(all, Buffers.all(view)), "owner write unseen: " + what);
      }
    }
    assertTrue(copies > CASES / 10, "too few materialized cases to mean anything: " + copies);
    assertTrue(notices.isEmpty(), notices.toString());
  }
}
