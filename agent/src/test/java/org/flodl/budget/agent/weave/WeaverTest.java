package org.flodl.budget.agent.weave;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
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

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  private byte[] weave(WeavePoint... points) throws IOException {
    return Weaver.weave(getClass().getClassLoader(), Target.class.getName().replace('.', '/'),
        bytes(Target.class), List.of(points), listener);
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
