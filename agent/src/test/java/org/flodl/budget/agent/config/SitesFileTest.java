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
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SitesFileTest {

  /** The example of DESIGN.md's "Sites file" section, verbatim. */
  static final String DESIGN_EXAMPLE =
      """
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

  /** The call-site example of DESIGN.md's "Sites that reach real code", verbatim. */
  static final String CALL_SITES_EXAMPLE =
      """
      site.rows.kind    = cache-admit
      site.rows.in      = com.acme.data.Dataset#get(int)
      site.rows.method  = java.util.Map#put(java.lang.Object,java.lang.Object)
      site.rows.value   = 1
      site.rows.release = java.util.Map#remove(java.lang.Object)

      site.queue.kind   = prefetch-depth
      site.queue.in     = com.acme.data.PrefetchLoader#<init>
      site.queue.method = java.util.concurrent.ArrayBlockingQueue#<init>(int)
      site.queue.depth  = 0
      site.queue.batch  = com.acme.data.PrefetchLoader#next
      """;

  /** The loaded-value example of DESIGN.md, verbatim. */
  static final String LOADED_EXAMPLE =
      """
      site.loaded.kind    = cache-admit
      site.loaded.method  = com.github.benmanes.caffeine.cache.Cache#get(java.lang.Object,java.util.function.Function)
      site.loaded.value   = return
      site.loaded.decline = com.github.benmanes.caffeine.cache.Cache#invalidate(java.lang.Object)
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

  private static MethodRef m(String text) {
    return MethodRef.parse(text);
  }

  @Test
  void theDesignExampleParsesWithItsInlineComments() throws Exception {
    SitesFile file = SitesFile.load(write(DESIGN_EXAMPLE));
    assertEquals(List.of(), file.warnings());
    String origin = dir.resolve("sites.properties").toString();
    assertEquals(
        List.of(
            new CacheAdmitSite(
                "samples",
                "samples",
                m("com.acme.data.SampleCache#put(java.lang.Object,java.lang.Object)"),
                null,
                1,
                m("com.acme.data.SampleCache#evict"),
                null,
                null,
                DeclineAnswer.EVICTED,
                false,
                -1,
                null,
                false,
                false,
                origin),
            // both batch and a fixed batch_bytes are given: the site carries both, the fixed price
            // wins
            new PrefetchDepthSite(
                "feed",
                "feed",
                m("com.acme.data.Loader#<init>"),
                null,
                2,
                m("com.acme.data.Loader#next"),
                16384,
                0,
                "cpu",
                PrefetchDepthSite.NO_EXECUTOR,
                null,
                false,
                origin)),
        file.sites());
    PrefetchDepthSite feed = (PrefetchDepthSite) file.sites().get(1);
    assertTrue(feed.method().isConstructor());
    assertFalse(feed.isCuda());
    assertFalse(feed.isCallSite());
    assertEquals(-1, feed.deviceIndex());
    assertEquals("com.acme.data.Loader#<init>", feed.method().toString());
    assertEquals("com.acme.data.Loader#next", feed.batch().toString());
    CacheAdmitSite samples = (CacheAdmitSite) file.sites().get(0);
    assertEquals("com.acme.data.SampleCache#evict", samples.release().toString());
    assertFalse(samples.stager());
    assertEquals(List.of(0), samples.declineArgs(), "decline_args default to the key");
    assertEquals(DeclineAnswer.EVICTED, samples.answer(), "answer defaults to what was evicted");
    assertFalse(samples.refusesNulls());
  }

  @Test
  void theCallSitesExampleParses() {
    SitesFile file = parse(CALL_SITES_EXAMPLE);
    assertEquals(List.of(), file.warnings());
    CacheAdmitSite rows = (CacheAdmitSite) file.sites().get(1);
    PrefetchDepthSite queue = (PrefetchDepthSite) file.sites().get(0);
    assertEquals(
        new Scope(Scope.Kind.METHOD, "com.acme.data.Dataset", m("com.acme.data.Dataset#get(int)")),
        rows.in());
    assertEquals(m("java.util.Map#put(java.lang.Object,java.lang.Object)"), rows.method());
    assertEquals(m("java.util.Map#remove(java.lang.Object)"), rows.release());
    assertTrue(rows.isCallSite());
    assertEquals(Scope.Kind.METHOD, queue.in().kind());
    assertEquals(m("java.util.concurrent.ArrayBlockingQueue#<init>(int)"), queue.method());
    assertEquals(0, queue.depth());
  }

  @Test
  void theLoadedValueExampleParsesAndDeclineArgsDefaultToTheKey() {
    CacheAdmitSite s = (CacheAdmitSite) only(parse(LOADED_EXAMPLE));
    assertTrue(s.returned());
    assertEquals(SiteSpec.RETURN, s.value());
    assertEquals(
        m("com.github.benmanes.caffeine.cache.Cache#invalidate(java.lang.Object)"), s.decline());
    assertEquals(List.of(0), s.declineArgs());

    CacheAdmitSite two =
        (CacheAdmitSite)
            only(
                parse(
                    """
        site.s.kind = cache-admit
        site.s.method = a.Cache#put(java.lang.Object,java.lang.Object,int)
        site.s.value = 1
        site.s.decline = a.Cache#remove(java.lang.Object,int)
        site.s.decline_args = 0, 2
        """));
    assertEquals(List.of(0, 2), two.declineArgs());
  }

  @Test
  void scopesOfEveryForm() {
    assertEquals(
        new Scope(Scope.Kind.CLASS, "com.acme.Dataset", null), Scope.parse("com.acme.Dataset"));
    assertEquals(
        new Scope(Scope.Kind.PACKAGE, "com.acme.data", null), Scope.parse("com.acme.data.*"));
    assertEquals(new Scope(Scope.Kind.PACKAGE_TREE, "com.acme", null), Scope.parse("com.acme.**"));
    Scope pkg = Scope.parse("com.acme.data.*");
    assertTrue(pkg.covers("com/acme/data/Dataset"));
    assertFalse(pkg.covers("com/acme/data/sub/Dataset"));
    assertTrue(Scope.parse("com.acme.**").covers("com/acme/data/sub/Dataset"));
    assertFalse(Scope.parse("com.acme.**").covers("com/acmex/Dataset"));
    Scope get = Scope.parse("com.acme.Dataset#get(int)");
    assertTrue(get.covers("com/acme/Dataset"));
    assertTrue(get.coversMethod("get"));
    assertTrue(get.coversMethod("lambda$get$0"), "a lambda javac compiled out of get");
    assertFalse(get.coversMethod("size"));
    assertTrue(Scope.parse("com.acme.Loader#<init>").coversMethod("lambda$new$2"));
    for (String bad : List.of("com.acme.*.x", "#get", "com..acme", "com.acme.Dataset#")) {
      assertThrows(IllegalArgumentException.class, () -> Scope.parse(bad), bad);
    }
  }

  @Test
  void sitesKeepTheFileOrderWhenLoadedAndNameOrderWhenGivenProperties() throws Exception {
    String text =
        """
        site.zeta.kind = cache-admit
        site.zeta.method = a.Z#put(java.lang.Object)
        site.zeta.value = 0
        site.alpha.kind = cache-admit
        site.alpha.method = a.A#put(java.lang.Object)
        site.alpha.value = 0
        """;
    assertEquals(
        List.of("zeta", "alpha"),
        SitesFile.load(write(text)).sites().stream().map(SiteSpec::name).toList());
    assertEquals(
        List.of("alpha", "zeta"), parse(text).sites().stream().map(SiteSpec::name).toList());
  }

  @Test
  void overloadParameterListsArraysPrimitivesVarargsAndNoArguments() {
    CacheAdmitSite s =
        (CacheAdmitSite)
            only(
                parse(
                    """
        site.s.kind = cache-admit
        site.s.method = com.acme.Cache$Shard#put( long , byte[] , java.lang.String[][] )
        site.s.value = 1
        site.s.release = com.acme.Cache$Shard#evict(long)
        """));
    assertEquals("com.acme.Cache$Shard", s.method().className());
    assertEquals(List.of("long", "byte[]", "java.lang.String[][]"), s.method().parameterTypes());
    assertEquals(List.of("long"), s.release().parameterTypes());
    assertEquals(
        "com.acme.Cache$Shard#put(long,byte[],java.lang.String[][])", s.method().toString());

    CacheAdmitSite v =
        (CacheAdmitSite)
            only(
                parse(
                    """
        site.v.kind = cache-admit
        site.v.method = a.B#add(int, java.lang.Object...)
        site.v.value = 1
        """));
    assertEquals(List.of("int", "java.lang.Object[]"), v.method().parameterTypes());

    PrefetchDepthSite none =
        (PrefetchDepthSite)
            only(
                parse(
                    """
        site.n.kind = prefetch-depth
        site.n.method = a.Loader#depth()
        site.n.depth = return
        """));
    assertEquals(List.of(), none.method().parameterTypes());
    assertTrue(none.returned());
  }

  @Test
  void aMethodWithoutParameterListMatchesByName() {
    CacheAdmitSite s =
        (CacheAdmitSite)
            only(
                parse(
                    """
        site.s.kind = cache-admit
        site.s.method = a.B#put
        site.s.value = 3
        """));
    assertNull(s.method().parameterTypes());
    assertEquals(3, s.value());
    assertNull(s.release());
  }

  @Test
  void cudaDeviceRoleSizesExecutorAdapterAndName() {
    PrefetchDepthSite s =
        (PrefetchDepthSite)
            only(
                parse(
                    """
        site.gpu.kind = prefetch-depth
        site.gpu.name = loaders
        site.gpu.method = ai.djl.training.dataset.DataIterable#<init>
        site.gpu.depth = 8
        site.gpu.executor = 7
        site.gpu.adapter = DJL
        site.gpu.batch = ai.djl.training.dataset.DataIterable#fetch(java.util.List,int)
        site.gpu.batch_bytes = 16K
        site.gpu.device = CUDA:1
        site.gpu.role = stager
        """));
    assertTrue(s.isCuda());
    assertEquals(1, s.deviceIndex());
    assertEquals("cuda:1", s.device());
    assertEquals(16 * 1024, s.batchBytes());
    assertTrue(s.stager());
    assertEquals(8, s.depth());
    assertEquals(7, s.executor());
    assertEquals("djl", s.adapter());
    assertEquals("gpu", s.block());
    assertEquals("loaders", s.name());
    assertEquals(List.of("java.util.List", "int"), s.batch().parameterTypes());
  }

  @Test
  void aBadEntryDisablesItsSiteOnlyAndTheWarningSaysWhy() {
    SitesFile file =
        parse(
            """
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
    assertEquals(
        List.of(
            p + "ignored 1 key(s) that are not site.NAME.FIELD (first: 'site.depth')",
            p + "site 'bytes' disabled: batch_bytes 'lots': expected a size, e.g. 16384 or 16K",
            p + "site 'device' disabled: device 'gpu0': expected cpu or cuda:N, e.g. cuda:0",
            p
                + "site 'index' disabled: value '2': the method takes 2 arguments: expected an index "
                + "from 0 to 1 or return",
            p + "site 'nokind' disabled: kind is missing: expected cache-admit or prefetch-depth",
            p + "site 'nomethod' disabled: method is missing: " + MethodRef.EXPECTED,
            p
                + "site 'notindex' disabled: value 'one': expected a 0-based argument index or return",
            p + "site 'oddkind' disabled: kind 'evict': expected cache-admit or prefetch-depth"),
        file.warnings());
  }

  @Test
  void everyProblemOfASiteIsOnItsOneWarningLine() {
    String w =
        rejected(
            parse(
                """
        site.s.kind = cache-admit
        site.s.method = a.B#put(java.lang.Object)
        site.s.vaule = 0
        """));
    assertTrue(
        w.startsWith(
            "flodl-budget: test.properties: site 's' disabled: unknown field "
                + "'vaule' (known: kind, name, method, in, value, release, decline, decline_args, "
                + "answer, refuses_nulls, key, role, adapter, views); value is missing: expected "
                + "a 0-based argument index or return"),
        w);
    assertEquals(1, w.lines().count());
  }

  @Test
  void viewsCopyByDefaultAndKeepWhereTheSiteSaysSo() {
    String site =
        """
        site.s.kind = cache-admit
        site.s.method = a.B#put(java.lang.Object)
        site.s.value = 0
        """;
    assertFalse(((CacheAdmitSite) only(parse(site))).keepViews(), "copied by default");
    assertTrue(((CacheAdmitSite) only(parse(site + "site.s.views = keep\n"))).keepViews());
    assertFalse(((CacheAdmitSite) only(parse(site + "site.s.views = COPY\n"))).keepViews());
    String w = rejected(parse(site + "site.s.views = share\n"));
    assertTrue(w.endsWith("disabled: views 'share': expected copy or keep"), w);
  }

  @Test
  void returnDepthAndConstructors() {
    PrefetchDepthSite ret =
        (PrefetchDepthSite)
            only(
                parse(
                    """
        site.r.kind = prefetch-depth
        site.r.method = a.L#prefetchDepth
        site.r.depth = RETURN
        """));
    assertTrue(ret.returned());
    assertFalse(ret.method().isConstructor());

    assertEquals(
        "flodl-budget: test.properties: site 'c' disabled: depth 'return' on a "
            + "constructor, which returns nothing: expected a 0-based argument index",
        rejected(
            parse(
                """
            site.c.kind = prefetch-depth
            site.c.method = a.L#<init>(int)
            site.c.depth = return
            """)));
    assertTrue(
        rejected(
                parse(
                    """
        site.c.kind = cache-admit
        site.c.method = a.Cache#<init>(java.lang.Object)
        site.c.value = 0
        """))
            .contains(
                "method 'a.Cache#<init>(java.lang.Object)' is a constructor: expected a "
                    + "method, since a declined cache-admit skips the call"));
    assertTrue(
        rejected(
                parse(
                    """
        site.c.kind = prefetch-depth
        site.c.method = a.L#<clinit>
        site.c.depth = 0
        """))
            .contains("method 'a.L#<clinit>': a static initializer cannot be a site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.c.kind = prefetch-depth
        site.c.method = a.L#run()
        site.c.depth = 0
        """))
            .contains("depth '0': the method takes 0 arguments: expected return"));
  }

  @Test
  void malformedMethodsAndFieldsOfTheOtherKind() {
    for (String method :
        List.of(
            "a.B",
            "a.B#",
            "a.B#(int)",
            "a.B#put(int",
            "a.B#put(int))",
            "a.B#put(in t)",
            "a..B#put",
            "a.B#put(int,)",
            "a.B#p-ut",
            "a.B#put#x",
            "1a.B#put")) {
      String w =
          rejected(
              parse(
                  "site.m.kind = cache-admit\nsite.m.method = " + method + "\nsite.m.value = 0\n"));
      assertTrue(
          w.contains("site 'm' disabled: method '")
              && w.contains("expected Class#method or Class#method(type,...)"),
          method + " -> " + w);
    }
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.value = 0
        site.x.release = a.L#close
        """))
            .endsWith(
                "value applies to cache-admit sites only: expected no value on a "
                    + "prefetch-depth site; release applies to cache-admit sites only: expected no release "
                    + "on a prefetch-depth site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object)
        site.x.value = 0
        site.x.device = cuda:0
        """))
            .endsWith(
                "device applies to prefetch-depth sites only: expected no device on a "
                    + "cache-admit site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.batch_bytes = 0
        """))
            .contains("batch_bytes '0': expected a size above 0"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = -1
        site.x.role = loader
        """))
            .endsWith(
                "role 'loader': expected stager (or no role); depth '-1': expected a "
                    + "0-based argument index or return"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object)
        site.x.value = 0
        site.x.decline_args = 0
        """))
            .contains("decline_args without decline"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object,java.lang.Object)
        site.x.value = 1
        site.x.decline = a.C#remove(java.lang.Object)
        site.x.decline_args = 2
        """))
            .contains(
                "decline_args '2': expected comma-separated 0-based argument indices of "
                    + "the site's method (0 to 1)"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object,java.lang.Object)
        site.x.value = 1
        site.x.decline = a.C#remove(java.lang.Object)
        site.x.answer = previous
        site.x.refuses_nulls = yes
        """))
            .endsWith(
                "answer 'previous': expected evicted, present, absent or default; "
                    + "refuses_nulls 'yes': expected true or false"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.method = a.C#put(java.lang.Object,java.lang.Object)
        site.x.value = 1
        site.x.answer = absent
        site.x.refuses_nulls = true
        """))
            .endsWith(
                "answer absent without decline: expected decline = Type#method; "
                    + "refuses_nulls without decline: expected decline = Type#method"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = prefetch-depth
        site.x.method = a.L#<init>(int)
        site.x.depth = 0
        site.x.adapter = tensorflow
        """))
            .contains("adapter 'tensorflow': expected djl on a prefetch-depth site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.in = a.Cache#put(java.lang.String,java.lang.Object)
        site.x.method = java.util.Map#put(java.lang.Object,java.lang.Object)
        site.x.value = 1
        site.x.adapter = djl
        """))
            .contains("adapter 'djl': expected jcache or dl4j on a cache-admit site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = prefetch-depth
        site.x.in = a.Main#run()
        site.x.method = java.util.concurrent.ArrayBlockingQueue#<init>(int)
        site.x.depth = 0
        site.x.executor = 1
        """))
            .contains("executor applies to method sites only"));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.in = a.Main#run(
        site.x.method = java.util.Map#put(java.lang.Object,java.lang.Object)
        site.x.value = 1
        """))
            .contains("in 'a.Main#run(': " + Scope.EXPECTED));
    assertTrue(
        rejected(
                parse(
                    """
        site.x.kind = cache-admit
        site.x.name = two words
        site.x.method = a.C#put(java.lang.Object)
        site.x.value = 0
        """))
            .contains("name 'two words': expected letters, digits"));
  }

  @Test
  void jdkBodiesAndTheAgentItselfAreNeverWovenAndTheLineNamesTheCallSiteForm() {
    String map =
        rejected(
            parse(
                """
        site.m.kind = cache-admit
        site.m.method = java.util.HashMap#put(java.lang.Object,java.lang.Object)
        site.m.value = 1
        """));
    assertTrue(
        map.contains(
            "'java.util.HashMap#put(java.lang.Object,java.lang.Object)' is a JDK "
                + "method, whose bodies are never woven: budget its calls with in = the code that makes "
                + "them"),
        map);
    assertEquals(1, map.lines().count());
    assertTrue(
        rejected(
                parse(
                    """
        site.s.kind = prefetch-depth
        site.s.method = java.lang.String#<init>(char[],int,int)
        site.s.depth = 1
        """))
            .contains("is a JDK method, whose bodies are never woven"));
    assertTrue(
        rejected(
                parse(
                    """
        site.s.kind = cache-admit
        site.s.method = javax.management.StandardMBean#getMBeanInfo()
        site.s.value = return
        """))
            .contains("is a JDK method"),
        "a JDK module's javax package");
    assertTrue(
        rejected(
                parse(
                    """
        site.g.kind = cache-admit
        site.g.method = org.flodl.budget.agent.gate.Gate#admit(int,java.lang.Object,java.lang.Object)
        site.g.value = 2
        """))
            .contains("is in the agent itself, whose classes are never woven"));
    assertTrue(
        rejected(
                parse(
                    """
        site.g.kind = cache-admit
        site.g.in = java.util.HashMap
        site.g.method = java.util.HashMap#putVal(int,java.lang.Object,java.lang.Object,boolean,boolean)
        site.g.value = 2
        """))
            .contains("in 'java.util.HashMap' names JDK code, which is never woven"));
    assertTrue(
        rejected(
                parse(
                    """
        site.g.kind = cache-admit
        site.g.method = com.acme.Store#put(java.lang.Object)
        site.g.value = 0
        site.g.release = java.util.Map#remove(java.lang.Object)
        """))
            .contains("release 'java.util.Map#remove(java.lang.Object)' is a JDK method"));
    // A library's javax.cache is no JDK type: its bodies are woven.
    only(
        parse(
            """
        site.j.kind = cache-admit
        site.j.method = javax.cache.Cache#put(java.lang.Object,java.lang.Object)
        site.j.value = 1
        site.j.decline = javax.cache.Cache#remove(java.lang.Object)
        """));
  }

  @Test
  void conflictsAreRefusedByName() {
    List<SiteSpec> sites =
        new ArrayList<>(
            parse(
                    """
        site.a.kind = cache-admit
        site.a.method = com.acme.Store#put(java.lang.Object,java.lang.Object)
        site.a.value = 1
        site.a.release = com.acme.Store#evict
        site.b.kind = cache-admit
        site.b.method = com.acme.Store#put(java.lang.Object,java.lang.Object)
        site.b.value = 1
        site.c.kind = cache-admit
        site.c.method = com.acme.Other#put(java.lang.Object)
        site.c.value = 0
        site.c.release = com.acme.Store#put(java.lang.Object,java.lang.Object)
        site.d.kind = prefetch-depth
        site.d.name = a
        site.d.method = com.acme.L#<init>(int)
        site.d.depth = 0
        """)
                .sites());
    List<String> warnings = new ArrayList<>();
    List<SiteSpec> kept = SitesFile.withoutConflicts(sites, warnings);
    assertEquals(List.of("a"), kept.stream().map(SiteSpec::block).toList());
    assertEquals(3, warnings.size(), warnings.toString());
    assertTrue(
        warnings
            .get(0)
            .contains(
                "site 'b' disabled: it budgets com.acme.Store#put("
                    + "java.lang.Object,java.lang.Object) as site 'a' (test.properties) already does"));
    assertTrue(
        warnings
            .get(1)
            .contains(
                "site 'c' disabled: its release com.acme.Store#put("
                    + "java.lang.Object,java.lang.Object) is the method site 'a' admits at"));
    assertTrue(warnings.get(2).contains("site 'd' disabled: name 'a' is a cache-admit site"));
    assertTrue(
        rejected(
                parse(
                    """
        site.a.kind = cache-admit
        site.a.method = com.acme.Store#put(java.lang.Object,java.lang.Object)
        site.a.value = 1
        site.a.release = com.acme.Store#put
        """))
            .contains("release 'com.acme.Store#put' is the site's own method"));
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
  void repeatedKeysAndStrayKeysWarnOnceEachButDoNotDisableOtherSites() throws Exception {
    SitesFile file =
        SitesFile.load(
            write(
                """
        # a comment line
        budget = 0.5
        other = 1
        site.a.kind = cache-admit
        site.a.method = a.A#put(java.lang.Object)
        site.a.value = 0
        site.a.value = 0
        """));
    assertEquals(List.of("a"), file.sites().stream().map(SiteSpec::name).toList());
    String origin = "flodl-budget: " + dir.resolve("sites.properties") + ": ";
    assertEquals(
        List.of(
            origin + "1 key(s) given more than once, the last value used (first: 'site.a.value')",
            origin + "ignored 2 key(s) that are not site.NAME.FIELD (first: 'budget')"),
        file.warnings());
  }

  @Test
  void anEmptyFileIsAWarningNotAnError() throws Exception {
    SitesFile file = SitesFile.load(write("# nothing yet\n"));
    assertEquals(List.of(), file.sites());
    assertEquals(
        List.of(
            "flodl-budget: "
                + dir.resolve("sites.properties")
                + ": declares no site (expected site.NAME.FIELD keys, or presets = NAME,...)"),
        file.warnings());
  }

  @Test
  void anUnreadableFileIsAConfigExceptionForTheSitesKey() throws Exception {
    Path missing = dir.resolve("nope.properties");
    ConfigException e = assertThrows(ConfigException.class, () -> SitesFile.load(missing));
    assertEquals("sites", e.key());
    assertEquals(
        "flodl-budget: cannot read sites file '"
            + missing
            + "' (sites="
            + missing
            + "): no such file; expected a readable Java properties file of site.NAME.FIELD entries; "
            + "agent disabled",
        e.getMessage());

    ConfigException directory = assertThrows(ConfigException.class, () -> SitesFile.load(dir));
    assertEquals("sites", directory.key());
    assertTrue(
        directory.getMessage().contains("): it is a directory; expected"), directory.getMessage());

    Path badEscape = write("site.a.kind = \\u12\n");
    ConfigException escape = assertThrows(ConfigException.class, () -> SitesFile.load(badEscape));
    assertTrue(escape.getMessage().contains("not a properties file"), escape.getMessage());
    assertEquals(1, escape.getMessage().lines().count());
  }

  @Test
  void aFifoADeviceABinaryAndAHugeFileAreRefusedWithoutBlockingOrReadingThem() throws Exception {
    ConfigException zero =
        assertThrows(ConfigException.class, () -> SitesFile.load(Path.of("/dev/zero")));
    assertTrue(zero.getMessage().contains("not a regular file"), zero.getMessage());

    Path fifo = dir.resolve("fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    assertTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "mkfifo");
    ConfigException pipe = assertThrows(ConfigException.class, () -> SitesFile.load(fifo));
    assertTrue(pipe.getMessage().contains("not a regular file"), pipe.getMessage());

    Path binary = dir.resolve("binary");
    Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 27, '[', '3', '1', 'm'});
    ConfigException bin = assertThrows(ConfigException.class, () -> SitesFile.load(binary));
    assertTrue(bin.getMessage().contains("it is not text"), bin.getMessage());
    assertFalse(bin.getMessage().chars().anyMatch(c -> c < 0x20), "no control bytes in the line");

    Path huge = dir.resolve("huge.properties");
    Files.write(huge, new byte[SitesFile.MAX_BYTES + 1]);
    ConfigException big = assertThrows(ConfigException.class, () -> SitesFile.load(huge));
    assertTrue(
        big.getMessage().contains("more than the 1048576 a sites file may have"), big.getMessage());
  }

  @Test
  void manyBadBlocksAreBoundedLines() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      text.append("site.b").append(i).append(".kind = nonsense\n");
      text.append("stray").append(i).append(" = x\n");
    }
    SitesFile file = parse(text.toString());
    assertEquals(SitesFile.MAX_BLOCK_LINES + 2, file.warnings().size(), file.warnings().toString());
    assertTrue(
        file.warnings().get(file.warnings().size() - 1).endsWith("40 more site(s) disabled"));
  }

  @Test
  void aFileInLatin1StillLoads() throws Exception {
    Path file = dir.resolve("latin1.properties");
    Files.write(
        file,
        ("site.caf\u00e9.kind = cache-admit\nsite.caf\u00e9.method = a.B#put\n"
                + "site.caf\u00e9.value = 0\n")
            .getBytes(StandardCharsets.ISO_8859_1));
    assertEquals("caf\u00e9", only(SitesFile.load(file)).name());
  }

  @Test
  void everyPresetParsesWithoutAWarning() throws Exception {
    for (String name : Presets.NAMES) {
      SitesFile preset = Presets.load(name);
      assertEquals(List.of(), preset.warnings(), name);
      assertFalse(preset.sites().isEmpty(), name);
      for (SiteSpec s : preset.sites()) {
        // one site per kind, named after the preset (dl4j's cache site is dl4j-cache)
        assertTrue(s.name().equals(name) || s.name().equals(name + "-cache"), s.name());
        assertEquals("preset " + name, s.origin());
      }
    }
    ConfigException unknown = assertThrows(ConfigException.class, () -> Presets.load("redis"));
    assertTrue(
        unknown
            .getMessage()
            .contains(
                "unknown preset 'redis' (known: caffeine, guava, " + "jcache, ehcache, djl, dl4j)"),
        unknown.getMessage());
  }

  @Test
  void aPresetsLineAddsPresetsAndMakesAFileUsable() {
    SitesFile only = parse("presets = caffeine, djl   # what suggest writes\n");
    assertEquals(List.of("caffeine", "djl"), only.presets());
    assertEquals(List.of(), only.warnings(), "a file of presets alone declares something");
    SitesFile both =
        parse(
            """
        presets = guava:redis
        site.s.kind = cache-admit
        site.s.method = a.B#put(java.lang.Object,java.lang.Object)
        site.s.value = 1
        """);
    assertEquals(List.of("guava"), both.presets());
    assertEquals(1, both.sites().size());
    assertEquals(1, both.warnings().size(), both.warnings().toString());
    assertTrue(
        both.warnings().get(0).contains("presets: unknown preset 'redis'"), both.warnings().get(0));
  }
}
