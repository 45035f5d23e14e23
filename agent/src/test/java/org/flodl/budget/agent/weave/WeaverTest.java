package org.flodl.budget.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The weaver refuses what ByteBuddy would break on, with a line that says why, and weaves the
 * rest: a class with one bad point still gets its good points.
 */
class WeaverTest {
  private final List<String> outcomes = new ArrayList<>();
  private final WeaveListener listener = new WeaveListener() {
    @Override
    public void woven(String className, WeavePoint point) {
      outcomes.add("woven " + point.site());
    }

    @Override
    public void failed(String className, WeavePoint point, String reason) {
      outcomes.add("failed " + point.site() + ": " + reason);
    }
  };

  /** A class with the shapes sites meet: overloads, a constructor depth, an int return. */
  public static final class Target {
    final int depth;

    public Target(String name, int depth) {
      this.depth = depth;
    }

    public Object put(Object key, Object value) {
      return value;
    }

    public Object put(Object key, Object value, long ttl) {
      return value;
    }

    public boolean offer(Object value) {
      return true;
    }

    public int depth() {
      return depth;
    }

    public long longDepth() {
      return depth;
    }
  }

  /**
   * Shapes the inserted code must fit: a static method with wide parameters, a value typed
   * narrower than Object, a loop (the method has stack-map frames of its own), long, double and
   * void returns.
   */
  public static final class Shapes {
    int sink;

    public static long stat(long a, byte[] value, double d) {
      return a + value.length + (long) d;
    }

    public ByteBuffer buffer(int i, ByteBuffer b) {
      return b.position() == i ? b : null;
    }

    public void loop(Object v, int n) {
      int s = 0;
      while (s < n) {
        s++;
      }
      sink = s + (v == null ? 0 : 1);
    }

    public Object evict(long k, Object v, int j) {
      return k == j ? v : null;
    }

    public double scaled(int depth, double x) {
      return depth * x;
    }

    public int depth() {
      return sink;
    }

    public String batch(String prefix, int n) {
      for (int i = 0; i < n; i++) {
        prefix = prefix + i;
      }
      return prefix;
    }
  }

  /** A covariant override: javac adds a bridge {@code Object get(Object)} beside it. */
  public static class Base {
    public Object get(Object key) {
      return key;
    }
  }

  /** The override a site names; its bridge is not a second overload. */
  public static final class Covariant extends Base {
    @Override
    public String get(Object key) {
      return String.valueOf(key);
    }
  }

  @Test
  void aCovariantOverrideIsNotAmbiguousWithItsBridge() throws IOException {
    byte[] out = Weaver.weave(Covariant.class.getName().replace('.', '/'), bytes(Covariant.class),
        List.of(new WeavePoint(0, "r", WeavePoint.Role.BATCH, Covariant.class.getName(), "get",
            List.of("java.lang.Object"), -1)), listener);
    assertNotNull(out, outcomes.toString());
    assertEquals(List.of("woven r"), outcomes);
  }

  /**
   * The woven class loads (the verifier checks the inserted code and its frames) and, with no
   * engine installed, every woven method behaves as written.
   */
  @Test
  void wovenCodeVerifiesAndPassesThroughWithNoEngine() throws Exception {
    String name = Shapes.class.getName();
    List<WeavePoint> points = List.of(
        new WeavePoint(0, "stat", WeavePoint.Role.CACHE_ADMIT, name, "stat", null, 1),
        new WeavePoint(1, "buffer", WeavePoint.Role.CACHE_ADMIT, name, "buffer", null, 1),
        new WeavePoint(2, "loop", WeavePoint.Role.CACHE_ADMIT, name, "loop", null, 0),
        new WeavePoint(3, "evict", WeavePoint.Role.RELEASE, name, "evict", null, -1),
        new WeavePoint(4, "scaled", WeavePoint.Role.DEPTH_ARGUMENT, name, "scaled", null, 0),
        new WeavePoint(5, "depth", WeavePoint.Role.DEPTH_RETURN, name, "depth", null, -1),
        new WeavePoint(6, "batch", WeavePoint.Role.BATCH, name, "batch", null, -1),
        new WeavePoint(300, "loop-release", WeavePoint.Role.RELEASE, name, "loop", null, -1));
    byte[] woven = Weaver.weave(name.replace('.', '/'), bytes(Shapes.class), points, listener);
    assertNotNull(woven, outcomes.toString());
    assertEquals(8, outcomes.stream().filter(o -> o.startsWith("woven")).count(),
        outcomes.toString());
    ClassLoader isolated = new ClassLoader(getClass().getClassLoader()) {
      @Override
      protected Class<?> loadClass(String n, boolean resolve) throws ClassNotFoundException {
        if (!n.equals(name)) {
          return super.loadClass(n, resolve);
        }
        synchronized (getClassLoadingLock(n)) {
          Class<?> c = findLoadedClass(n);
          return c != null ? c : defineClass(n, woven, 0, woven.length);
        }
      }
    };
    Class<?> c = Class.forName(name, true, isolated);
    assertTrue(c != Shapes.class, "the woven copy, not the test's own class");
    Object shapes = c.getConstructor().newInstance();
    assertEquals(17L, c.getMethod("stat", long.class, byte[].class, double.class)
        .invoke(null, 10L, new byte[5], 2.5));
    ByteBuffer b = ByteBuffer.allocate(8).position(3);
    assertEquals(b, c.getMethod("buffer", int.class, ByteBuffer.class).invoke(shapes, 3, b));
    c.getMethod("loop", Object.class, int.class).invoke(shapes, "v", 4);
    assertEquals(5, c.getMethod("depth").invoke(shapes));
    assertEquals("x", c.getMethod("evict", long.class, Object.class, int.class)
        .invoke(shapes, 7L, "x", 7));
    assertEquals(7.5, c.getMethod("scaled", int.class, double.class).invoke(shapes, 3, 2.5));
    assertEquals("p01", c.getMethod("batch", String.class, int.class).invoke(shapes, "p", 2));
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  private byte[] weave(WeavePoint... points) throws IOException {
    return Weaver.weave(Target.class.getName().replace('.', '/'), bytes(Target.class),
        List.of(points), listener);
  }

  private static WeavePoint point(String site, WeavePoint.Role role, String method,
      List<String> params, int index) {
    return new WeavePoint(0, site, role, Target.class.getName(), method, params, index);
  }

  @Test
  void weavesACacheAdmitWithItsParameterList() throws IOException {
    byte[] out = weave(point("a", WeavePoint.Role.CACHE_ADMIT, "put",
        List.of("java.lang.Object", "java.lang.Object"), 1));
    assertNotNull(out);
    assertEquals(List.of("woven a"), outcomes);
  }

  @Test
  void refusesAnAmbiguousOverloadAndSaysWhich() throws IOException {
    assertNull(weave(point("a", WeavePoint.Role.CACHE_ADMIT, "put", null, 1)));
    assertTrue(outcomes.get(0).contains("matches 2 overloads"), outcomes.toString());
  }

  @Test
  void refusesAnArgumentIndexOutOfRange() throws IOException {
    assertNull(weave(point("a", WeavePoint.Role.CACHE_ADMIT, "offer", null, 3)));
    assertTrue(outcomes.get(0).contains("argument index 3 is out of range"), outcomes.toString());
  }

  @Test
  void refusesAPrimitiveValueAndANonIntDepth() throws IOException {
    weave(point("v", WeavePoint.Role.CACHE_ADMIT, "<init>", null, 1),
        point("d", WeavePoint.Role.DEPTH_RETURN, "longDepth", null, -1),
        point("e", WeavePoint.Role.DEPTH_ARGUMENT, "<init>", null, 0));
    assertTrue(outcomes.get(0).contains("cannot skip a constructor"), outcomes.toString());
    assertTrue(outcomes.get(1).contains("expected") || outcomes.get(1).contains("return int"),
        outcomes.toString());
    assertTrue(outcomes.get(2).contains("expected int"), outcomes.toString());
  }

  @Test
  void aBadPointLeavesTheGoodPointsOfItsClassWoven() throws IOException {
    byte[] out = weave(point("missing", WeavePoint.Role.CACHE_ADMIT, "nope", null, 0),
        point("depth", WeavePoint.Role.DEPTH_ARGUMENT, "<init>", null, 1),
        point("ret", WeavePoint.Role.DEPTH_RETURN, "depth", null, -1),
        point("rel", WeavePoint.Role.RELEASE, "offer", null, -1),
        point("batch", WeavePoint.Role.BATCH, "put",
            List.of("java.lang.Object", "java.lang.Object", "long"), -1));
    assertNotNull(out);
    assertTrue(outcomes.get(0).startsWith("failed missing: no method"), outcomes.toString());
    assertEquals(List.of("woven depth", "woven ret", "woven rel", "woven batch"),
        outcomes.subList(1, 5));
  }
}
