package org.flodl.budget.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SitesFileTest {

  /** The example of DESIGN.md's "Sites file" section, verbatim. */
  static final String DESIGN_EXAMPLE = """
      site.samples.kind    = cache-admit
      site.samples.method  = com.acme.data.SampleCache#put(java.lang.Object,java.lang.Object)
      site.samples.value   = 1          # 0-based argument index of the value the cache will retain
      site.samples.release = com.acme.data.SampleCache#evict   # optional: its argument or return is released

      site.feed.kind        = prefetch-depth
      site.feed.method      = com.acme.data.Loader#<init>
      site.feed.depth       = 2         # argument index that carries the requested depth, or `return`
      site.feed.batch       = com.acme.data.Loader#next       # optional: returns batches, priced as they pass
      site.feed.batch_bytes = 16384     # optional: a fixed batch price instead
      site.feed.device      = cpu       # cpu · cuda:N
      """;

  @TempDir Path dir;

  private Path write(String text) throws IOException {
    Path file = dir.resolve("sites.properties");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    return file;
  }

  private static SitesFile parse(String text) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    return SitesFile.parse(p, "test.properties");
  }

  private static SiteSpec only(SitesFile file) {
    assertEquals(List.of(), file.warnings());
    assertEquals(1, file.sites().size());
    return file.sites().get(0);
  }

  /** Returns the one warning of {@code file}, which kept no site. */
  private static String rejected(SitesFile file) {
    assertEquals(List.of(), file.sites());
    assertEquals(1, file.warnings().size(), file.warnings().toString());
    return file.warnings().get(0);
  }

  @Test
  void theDesignExampleParsesWithItsInlineComments() throws Exception {
    SitesFile file = SitesFile.load(write(DESIGN_EXAMPLE));
    assertEquals(List.of(), file.warnings());
    assertEquals(List.of(
        new SiteSpec("samples", SiteSpec.Kind.CACHE_ADMIT, "com.acme.data.SampleCache", "put",
            List.of("java.lang.Object", "java.lang.Object"), 1, SiteSpec.UNUSED,
            "com.acme.data.SampleCache", "evict", null, null, null, 0, "cpu", null),
        // both batch and a fixed batch_bytes are given: the site carries both, the fixed price wins
        new SiteSpec("feed", SiteSpec.Kind.PREFETCH_DEPTH, "com.acme.data.Loader", "<init>", null,
            SiteSpec.UNUSED, 2, null, null, null, "com.acme.data.Loader", "next", 16384, "cpu",
            null)), file.sites());
    SiteSpec feed = file.sites().get(1);
    assertTrue(feed.isConstructor());
    assertFalse(feed.isCuda());
    assertEquals(-1, feed.deviceIndex());
    assertEquals("com.acme.data.Loader#<init>", feed.method());
    assertEquals("com.acme.data.Loader#next", feed.batch());
    assertEquals("com.acme.data.SampleCache#evict", file.sites().get(0).release());
    assertFalse(file.sites().get(0).isStager());
  }

  @Test
  void theDesignExampleWithoutItsOptionalLinesStillParses() throws Exception {
    String bare = DESIGN_EXAMPLE.replaceAll("(?m)^.*# optional.*$", "");
    SitesFile file = SitesFile.load(write(bare));
    assertEquals(List.of(), file.warnings());
    assertEquals(List.of("samples", "feed"), file.sites().stream().map(SiteSpec::name).toList());
    assertNull(file.sites().get(0).releaseClass());
    assertNull(file.sites().get(0).release());
    assertNull(file.sites().get(1).batchClass());
    assertEquals(0, file.sites().get(1).batchBytes());
  }

  @Test
  void sitesKeepTheFileOrderWhenLoadedAndNameOrderWhenGivenProperties() throws Exception {
    String text = """
        site.zeta.kind = cache-admit
        site.zeta.method = a.Z#put(java.lang.Object)
        site.zeta.value = 0
        site.alpha.kind = cache-admit
        site.alpha.method = a.A#put(java.lang.Object)
        site.alpha.value = 0
        """;
    assertEquals(List.of("zeta", "alpha"),
        SitesFile.load(write(text)).sites().stream().map(SiteSpec::name).toList());
    assertEquals(List.of("alpha", "zeta"),
        parse(text).sites().stream().map(SiteSpec::name).toList());
  }

  @Test
  void overloadParameterListsArraysPrimitivesVarargsAndNoArguments() {
    SiteSpec s = only(parse("""
        site.s.kind = cache-admit
        site.s.method = com.acme.Cache$Shard#put( long , byte[] , java.lang.String[][] )
        site.s.value = 1
        site.s.release = com.acme.Cache$Shard#evict(long)
        """));
    assertEquals("com.acme.Cache$Shard", s.className());
    assertEquals(List.of("long", "byte[]", "java.lang.String[][]"), s.parameterTypes());
    assertEquals(List.of("long"), s.releaseParams());
    assertEquals("com.acme.Cache$Shard#put(long,byte[],java.lang.String[][])", s.method());
    assertEquals("com.acme.Cache$Shard#evict(long)", s.release());

    SiteSpec v = only(parse("""
        site.v.kind = cache-admit
        site.v.method = a.B#add(int, java.lang.Object...)
        site.v.value = 1
        """));
    assertEquals(List.of("int", "java.lang.Object[]"), v.parameterTypes());

    SiteSpec none = only(parse("""
        site.n.kind = prefetch-depth
        site.n.method = a.Loader#depth()
        site.n.depth = return
        """));
    assertEquals(List.of(), none.parameterTypes());
    assertEquals(SiteSpec.RETURN, none.depthIndex());
    assertEquals("a.Loader#depth()", none.method());
  }

  @Test
  void aMethodWithoutParameterListMatchesByName() {
    SiteSpec s = only(parse("""
        site.s.kind = cache-admit
        site.s.method = a.B#put
        site.s.value = 3
        """));
    assertNull(s.parameterTypes());
    assertEquals(3, s.valueIndex());
    assertNull(s.releaseClass());
  }

  @Test
  void cudaDeviceRoleAndSizesWithSuffixes() {
    SiteSpec s = only(parse("""
        site.gpu.kind = prefetch-depth
        site.gpu.method = ai.djl.training.dataset.DataIterable#<init>
        site.gpu.depth = 8
        site.gpu.batch_bytes = 16K
        site.gpu.device = CUDA:1
        site.gpu.role = stager
        """));
    assertTrue(s.isCuda());
    assertEquals(1, s.deviceIndex());
    assertEquals("cuda:1", s.device());
    assertEquals(16 * 1024, s.batchBytes());
    assertTrue(s.isStager());
    assertEquals(8, s.depthIndex());
  }

  @Test
  void aBadEntryDisablesItsSiteOnlyAndTheWarningSaysWhy() {
    SitesFile file = parse("""
        site.good.kind = cache-admit
        site.good.method = a.Good#put(java.lang.Object,java.lang.Object)
        site.good.value = 1

        site.nokind.method = a.B#put

        site.nomethod.kind = cache-admit
        site.nomethod.value = 0

        site.oddkind.kind = evict
        site.oddkind.method = a.B#put

        site.index.kind = cache-admit
        site.index.method = a.B#put(java.lang.Object,java.lang.Object)
        site.index.value = 2

        site.notindex.kind = cache-admit
        site.notindex.method = a.B#put
        site.notindex.value = one

        site.bytes.kind = prefetch-depth
        site.bytes.method = a.L#<init>(int)
        site.bytes.depth = 0
        site.bytes.batch_bytes = lots

        site.device.kind = prefetch-depth
        site.device.method = a.L#<init>(int)
        site.depth = 0
        site.device.depth = 0
        site.device.device = gpu0

        site.good2.kind = prefetch-depth
        site.good2.method = a.L#<init>(int)
        site.good2.depth = 0
        """);
    assertEquals(List.of("good", "good2"), file.sites().stream().map(SiteSpec::name).toList());
    String p = "flodl-budget: test.properties: ";
    assertEquals(List.of(
        p + "ignored 'site.depth': expected site.NAME.FIELD keys (fields: kind, method, value, "
            + "release, depth, batch, batch_bytes, device, role)",
        p + "site 'bytes' disabled: batch_bytes 'lots': expected a size, e.g. 16384 or 16K",
        p + "site 'device' disabled: device 'gpu0': expected cpu or cuda:N, e.g. cuda:0",
        p + "site 'index' disabled: value '2': the method takes 2 arguments: expected an index "
            + "from 0 to 1",
        p + "site 'nokind' disabled: kind is missing: expected cache-admit or prefetch-depth",
        p + "site 'nomethod' disabled: method is missing: " + MethodRef.EXPECTED,
        p + "site 'notindex' disabled: value 'one': expected a 0-based argument index",
        p + "site 'oddkind' disabled: kind 'evict': expected cache-admit or prefetch-depth"),
        file.warnings());
  }

  @Test
  void everyProblemOfASiteIsOnItsOneWarningLine() {
    String w = rejected(parse("""
        site.s.kind = cache-admit
        site.s.method = a.B#put(java.lang.Object)
        site.s.vaule = 0
        """));
    assertEquals("flodl-budget: test.properties: site 's' disabled: unknown field 'vaule' (known: "
        + "kind, method, value, release, depth, batch, batch_bytes, device, role); value is "
        + "missing: expected a 0-based argument index", w);
    assertEquals(1, w.lines().count());
  }

  @Test
  void returnDepthAndConstructors() {
    SiteSpec ret = only(parse("""
        site.r.kind = prefetch-depth
        site.r.method = a.L#prefetchDepth
        site.r.depth = RETURN
        """));
    assertEquals(SiteSpec.RETURN, ret.depthIndex());
    assertEquals(SiteSpec.UNUSED, ret.valueIndex());
    assertFalse(ret.isConstructor());

    assertEquals("flodl-budget: test.properties: site 'c' disabled: depth 'return' on a "
        + "constructor, which returns nothing: expected a 0-based argument index",
        rejected(parse("""
            site.c.kind = prefetch-depth
            site.c.method = a.L#<init>(int)
            site.c.depth = return
            """)));
    assertTrue(rejected(parse("""
        site.c.kind = cache-admit
        site.c.method = a.Cache#<init>(java.lang.Object)
        site.c.value = 0
        """)).contains("method 'a.Cache#<init>(java.lang.Object)' is a constructor: expected a "
            + "method, since a declined cache-admit skips the call"));
    assertTrue(rejected(parse("""
        site.c.kind = prefetch-depth
        site.c.method = a.L#<clinit>
        site.c.depth = 0
        """)).contains("method 'a.L#<clinit>': a static initializer cannot be a site"));
    assertTrue(rejected(parse("""
        site.c.kind = prefetch-depth
        site.c.method = a.L#run()
        site.c.depth = 0
        """)).contains("depth '0': the method takes 0 arguments: expected return"));
  }

  @Test
  void malformedMethodsAndFieldsOfTheOtherKind() {
    for (String method : List.of("a.B", "a.B#", "a.B#(int)", "a.B#put(int", "a.B#put(int))",
        "a.B#put(in t)", "a..B#put", "a.B#put(int,)", "a.B#p-ut", "a.B#put#x", "1a.B#put")) {
      String w = rejected(parse("site.m.kind = cache-admit\nsite.m.method = " + method
          + "\nsite.m.value = 0\n"));
      assertTrue(w.contains("site 'm' disabled: method '") && w.contains(
          "expected Class#method or Class#method(type,...)"), method + " -> " + w);
    }
    assertTrue(rejected(parse("""
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.value = 0
        site.x.release = a.L#close
        """)).endsWith("value applies to cache-admit sites only: expected no value on a "
            + "prefetch-depth site; release applies to cache-admit sites only: expected no release "
            + "on a prefetch-depth site"));
    assertTrue(rejected(parse("""
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object)
        site.x.value = 0
        site.x.device = cuda:0
        """)).endsWith("device applies to prefetch-depth sites only: expected no device on a "
            + "cache-admit site"));
    assertTrue(rejected(parse("""
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.batch = a.L#next(int)
        """)).contains("batch 'a.L#next(int)': expected Class#method without a parameter list"));
    assertTrue(rejected(parse("""
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.batch_bytes = 0
        """)).contains("batch_bytes '0': expected a size above 0"));
    assertTrue(rejected(parse("""
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = -1
        site.x.role = loader
        """)).endsWith("role 'loader': expected stager (or no role); depth '-1': expected a "
            + "0-based argument index or return"));
  }

  @Test
  void commentsAreStrippedOnlyAfterABlank() {
    assertEquals("a.B#put", SitesFile.stripComment("a.B#put"));
    assertEquals("a.B#put", SitesFile.stripComment("a.B#put   # the cache"));
    assertEquals("a.B#put", SitesFile.stripComment("a.B#put\t#x"));
    assertEquals("", SitesFile.stripComment("# nothing"));
    assertEquals("1", SitesFile.stripComment(" 1 #a #b"));
  }

  @Test
  void repeatedKeysAndStrayKeysWarnButDoNotDisableOtherSites() throws Exception {
    SitesFile file = SitesFile.load(write("""
        # a comment line
        budget = 0.5
        site.a.kind = cache-admit
        site.a.method = a.A#put(java.lang.Object)
        site.a.value = 0
        site.a.value = 0
        """));
    assertEquals(List.of("a"), file.sites().stream().map(SiteSpec::name).toList());
    String origin = "flodl-budget: " + dir.resolve("sites.properties") + ": ";
    assertEquals(List.of(
        origin + "'site.a.value' is given more than once; the last value is used",
        origin + "ignored 'budget': expected site.NAME.FIELD keys (fields: kind, method, value, "
            + "release, depth, batch, batch_bytes, device, role)"), file.warnings());
  }

  @Test
  void anEmptyFileIsAWarningNotAnError() throws Exception {
    SitesFile file = SitesFile.load(write("# nothing yet\n"));
    assertEquals(List.of(), file.sites());
    assertEquals(List.of("flodl-budget: " + dir.resolve("sites.properties")
        + ": declares no site (expected site.NAME.FIELD keys)"), file.warnings());
  }

  @Test
  void anUnreadableFileIsAConfigExceptionForTheSitesKey() throws Exception {
    Path missing = dir.resolve("nope.properties");
    ConfigException e = assertThrows(ConfigException.class, () -> SitesFile.load(missing));
    assertEquals("sites", e.key());
    assertEquals("flodl-budget: cannot read sites file '" + missing + "' (sites=" + missing
        + "): no such file; expected a readable Java properties file of site.NAME.FIELD entries; "
        + "agent disabled", e.getMessage());

    ConfigException directory = assertThrows(ConfigException.class, () -> SitesFile.load(dir));
    assertEquals("sites", directory.key());
    assertTrue(directory.getMessage().contains("): it is a directory; expected"),
        directory.getMessage());

    Path badEscape = write("site.a.kind = \\u12\n");
    ConfigException escape = assertThrows(ConfigException.class, () -> SitesFile.load(badEscape));
    assertTrue(escape.getMessage().contains("not a properties file"), escape.getMessage());
    assertEquals(1, escape.getMessage().lines().count());
  }

  @Test
  void aFileInLatin1StillLoads() throws Exception {
    Path file = dir.resolve("latin1.properties");
    Files.write(file, ("site.caf\u00e9.kind = cache-admit\nsite.caf\u00e9.method = a.B#put\n"
        + "site.caf\u00e9.value = 0\n").getBytes(StandardCharsets.ISO_8859_1));
    assertEquals("caf\u00e9", only(SitesFile.load(file)).name());
  }
}
