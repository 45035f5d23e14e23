package org.flodl.budget.pricing;

import static org.flodl.budget.pricing.ContainerPricingTest.arr;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A property of the bounded walk, over random object graphs (trees, DAGs whose nodes are shared,
 * graphs with cycles; application objects, reference arrays, primitive arrays and heap buffers; up
 * to a million objects): the price never exceeds what the value really retains by more than 10 %
 * plus the bytes it says it extrapolated; a walk that reached everything charges exactly the sum of
 * the parts; and the walk reads its clock no more than its time bound allows (a fake clock,
 * advancing 1 µs a read). A tree is always priced; a graph whose depth-first walk nests deeper than
 * {@link Walk#MAX_DEPTH} may instead be refused as unpriceable (declined, never admitted unbooked),
 * and nothing else may happen.
 */
class GraphPricingPropertyTest {
  private static final long TICK = 1_000;

  /** An application object with three references. */
  static final class Vertex {
    Object a;
    Object b;
    Object c;
  }

  enum Shape {
    TREE,
    DAG,
    CYCLES
  }

  @ParameterizedTest(name = "{0} objects, {1}, seed {2}")
  @CsvSource({
    "10, TREE, 1", "10, DAG, 2", "10, CYCLES, 3",
    "1000, TREE, 4", "1000, DAG, 5", "1000, CYCLES, 6",
    "100000, TREE, 7", "100000, DAG, 8", "100000, CYCLES, 9",
    "1000000, TREE, 10", "1000000, DAG, 11", "1000000, CYCLES, 12"
  })
  void thePriceNeverExceedsTheRetainedSizeByMoreThanItsStatedError(int n, Shape shape, long seed) {
    Random r = new Random(seed);
    Object root = graph(n, shape, r);
    AtomicLong now = new AtomicLong();
    AtomicLong reads = new AtomicLong();
    RetentionPricer pricer =
        new RetentionPricer(
            null,
            List.of(),
            JdkAccess.detect(),
            line -> {},
            () -> {
              reads.incrementAndGet();
              return now.addAndGet(TICK);
            });
    Priced p;
    try {
      p = pricer.estimate(root);
    } catch (PricingException e) {
      assertTrue(shape != Shape.TREE && e.reason().equals("UNBOUNDED"), e.toString());
      assertTrue(reads.get() <= Walk.MAX_NANOS / TICK + 2, reads.get() + " clock reads");
      return;
    }
    long[] retained = retained(root);
    long model = retained[0];
    long real = retained[1];
    assertTrue(
        p.chargedBytes() <= real + real / 10 + p.extrapolatedBytes(),
        p + " over " + real + " retained");
    if (!p.estimated()) {
      assertEquals(model, p.chargedBytes(), "a whole walk charges each part once, exactly");
    } else {
      assertTrue(p.extrapolatedBytes() > 0 || p.chargedBytes() <= model, p.toString());
    }
    assertTrue(reads.get() <= Walk.MAX_NANOS / TICK + 2, reads.get() + " clock reads");
  }

  /**
   * Returns a random layered graph of about {@code n} objects, each reachable from the first: a
   * layer's containers have free slots, the next layer fills most of them, one slot each (a tree);
   * a DAG's and a cyclic graph's left-over slots then point at shared nodes of the layer below, or
   * (cycles) anywhere above.
   */
  private static Object graph(int n, Shape shape, Random r) {
    List<Object> all = new ArrayList<>(n);
    List<Object> layer = new ArrayList<>(List.of(node(r, true)));
    all.addAll(layer);
    while (all.size() < n) {
      List<Object[]> slots = new ArrayList<>(); // {parent, index}
      for (Object o : layer) {
        for (int i = 0; i < capacity(o); i++) {
          slots.add(new Object[] {o, i});
        }
      }
      if (slots.isEmpty()) {
        break;
      }
      Collections.shuffle(slots, r);
      int width = Math.min(n - all.size(), Math.max(1, slots.size() * 4 / 5));
      List<Object> below = new ArrayList<>(width);
      for (int i = 0; i < width; i++) {
        Object child = node(r, false);
        set(slots.get(i), child);
        below.add(child);
      }
      all.addAll(below);
      if (shape != Shape.TREE) {
        for (int i = width; i < slots.size(); i++) {
          Object target =
              shape == Shape.CYCLES && r.nextInt(3) == 0
                  ? all.get(r.nextInt(all.size()))
                  : below.get(r.nextInt(below.size()));
          set(slots.get(i), target);
        }
      }
      layer = below;
    }
    return all.get(0);
  }

  private static int capacity(Object o) {
    return o instanceof Vertex ? 3 : o instanceof Object[] a ? a.length : 0;
  }

  private static void set(Object[] slot, Object child) {
    int i = (Integer) slot[1];
    if (slot[0] instanceof Vertex v) {
      if (i == 0) {
        v.a = child;
      } else if (i == 1) {
        v.b = child;
      } else {
        v.c = child;
      }
    } else {
      ((Object[]) slot[0])[i] = child;
    }
  }

  private static Object node(Random r, boolean root) {
    switch (root ? 0 : r.nextInt(6)) { // containers two thirds of the time: the graph grows
      case 0:
      case 1:
        return new Vertex();
      case 2:
      case 3:
        return new Object[1 + r.nextInt(8)];
      case 4:
        return r.nextBoolean() ? new byte[r.nextInt(4096)] : new float[r.nextInt(512)];
      default:
        return ByteBuffer.allocate(r.nextInt(2048));
    }
  }

  /**
   * Returns {what the pricer's model charges for the whole graph, what it really retains}: the same
   * but for heap buffers, which the pricer charges their bytes and which retain their object and
   * their array's header besides.
   */
  private static long[] retained(Object root) {
    Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    ArrayDeque<Object> todo = new ArrayDeque<>();
    todo.add(root);
    seen.add(root);
    long model = 0;
    long real = 0;
    while (!todo.isEmpty()) {
      Object o = todo.poll();
      List<Object> children = new ArrayList<>();
      long size;
      long extra = 0;
      if (o instanceof Vertex v) {
        size = ShallowSizer.estimate(Vertex.class);
        children.add(v.a);
        children.add(v.b);
        children.add(v.c);
      } else if (o instanceof Object[] a) {
        size = arr(a.length, 4);
        Collections.addAll(children, a);
      } else if (o instanceof byte[] b) {
        size = arr(b.length, 1);
      } else if (o instanceof float[] f) {
        size = arr(f.length, 4);
      } else {
        ByteBuffer b = (ByteBuffer) o;
        size = b.capacity();
        extra = ShallowSizer.estimate(b.getClass()) + 16;
      }
      model += size;
      real += size + extra;
      for (Object c : children) {
        if (c != null && seen.add(c)) {
          todo.add(c);
        }
      }
    }
    return new long[] {model, real};
  }
}
