package org.flodl.budget.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SiteSpecTest {

  private static SiteSpec depthSite(String device, List<String> params) {
    return new SiteSpec("feed", SiteSpec.Kind.PREFETCH_DEPTH, "a.L", "<init>", params,
        SiteSpec.UNUSED, 0, null, null, null, null, null, 0, device, null);
  }

  @Test
  void devices() {
    assertEquals("cpu", depthSite(null, null).device());
    assertEquals(-1, depthSite("cpu", null).deviceIndex());
    SiteSpec gpu = depthSite("CUDA:3", null);
    assertTrue(gpu.isCuda());
    assertEquals("cuda:3", gpu.device());
    assertEquals(3, gpu.deviceIndex());
  }

  @Test
  void parameterListsAreCopiedAndImmutable() {
    List<String> params = new ArrayList<>(List.of("int"));
    SiteSpec s = depthSite("cpu", params);
    params.add("long");
    assertEquals(List.of("int"), s.parameterTypes());
    assertThrows(UnsupportedOperationException.class, () -> s.parameterTypes().add("x"));
    assertNull(depthSite("cpu", null).parameterTypes());
    assertEquals("a.L#<init>(int)", s.method());
    assertEquals("a.L#<init>", depthSite("cpu", null).method());
  }

  @Test
  void requiredComponents() {
    assertThrows(NullPointerException.class, () -> new SiteSpec("x", null, "a.B", "m", null,
        0, SiteSpec.UNUSED, null, null, null, null, null, 0, "cpu", null));
    assertThrows(NullPointerException.class, () -> new SiteSpec("x", SiteSpec.Kind.CACHE_ADMIT,
        null, "m", null, 0, SiteSpec.UNUSED, null, null, null, null, null, 0, "cpu", null));
  }

  @Test
  void kindLabels() {
    assertEquals("cache-admit", SiteSpec.Kind.CACHE_ADMIT.label());
    assertEquals(SiteSpec.Kind.PREFETCH_DEPTH, SiteSpec.Kind.fromLabel("Prefetch-Depth"));
    assertNull(SiteSpec.Kind.fromLabel("cache_admit"));
  }

  @Test
  void enumLabelsAndLogLevels() {
    assertEquals("observe", Mode.OBSERVE.label());
    assertEquals("auto", PrefetchPolicy.AUTO.label());
    assertEquals("debug", LogLevel.DEBUG.label());
    assertTrue(LogLevel.WARN.includes(LogLevel.WARN));
    assertFalse(LogLevel.WARN.includes(LogLevel.INFO));
    assertTrue(LogLevel.DEBUG.includes(LogLevel.INFO));
  }
}
