package org.flodl.budget.agent.suggest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.flodl.budget.agent.config.SitesFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code suggest} over the compiled shapes of {@code com.acme.suggest.Shapes}: a map field filled
 * in a getter, {@code computeIfAbsent} with a lambda, a list appended to every epoch, an {@code
 * ArrayBlockingQueue} sized from a constructor argument and a {@code LinkedBlockingQueue} from a
 * field are candidates, printed exactly as {@code suggest/shapes.expected} says (below the header);
 * a queue sized from a constant, a map that bounds itself, a registry filled in a static
 * initializer and the parts a constructor collects are not.
 */
class SuggestTest {
  private static final Path CLASSES = Path.of("target/test-classes");

  private static String[] run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        SuggestCommand.run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return new String[] {
      Integer.toString(code),
      out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)
    };
  }

  private static String expected(String name) throws IOException {
    try (InputStream in = SuggestTest.class.getResourceAsStream("/suggest/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Returns the blocks: what follows the header's blank line. */
  private static String blocks(String file) {
    return file.substring(file.indexOf("\n\n") + 2);
  }

  /** The shapes split in two: each half's classes, by simple name in {@code com/acme/suggest}. */
  private static final String[] FIRST = {"MapInGetter", "QueueFromArgument", "ComputeWithLambda"};

  private static final String[] SECOND = {
    "EpochList",
    "QueueFromField",
    "QueueFromConstant",
    "SelfBoundedLru",
    "SelfBoundedLru$1",
    "RegistryFilledOnce",
    "PartsOfItself",
    "Shapes"
  };

  /** Writes the compiled {@code com.acme.suggest} classes {@code simpleNames} as jar {@code to}. */
  private static Path jar(Path to, String... simpleNames) throws IOException {
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(to))) {
      for (String n : simpleNames) {
        zip.putNextEntry(new ZipEntry("com/acme/suggest/" + n + ".class"));
        zip.write(Files.readAllBytes(CLASSES.resolve("com/acme/suggest/" + n + ".class")));
        zip.closeEntry();
      }
    }
    return to;
  }

  /** Copies the compiled {@code com.acme.suggest} classes {@code simpleNames} under {@code to}. */
  private static Path classes(Path to, String... simpleNames) throws IOException {
    Path pkg = Files.createDirectories(to.resolve("com/acme/suggest"));
    for (String n : simpleNames) {
      Files.copy(CLASSES.resolve("com/acme/suggest/" + n + ".class"), pkg.resolve(n + ".class"));
    }
    return to;
  }

  private static String wildcard(Path dir) {
    return dir + File.separator + "*";
  }

  @Test
  void eachShapeGivesItsBlockAndTheOthersNone() throws IOException {
    String[] r = run("--package", "com.acme.suggest", CLASSES.toString());
    assertEquals("0", r[0], r[2]);
    assertEquals(expected("shapes.expected"), blocks(r[1]));
    assertTrue(
        r[1].startsWith("# Sites suggested by flodl-budget for target/test-classes: "), r[1]);
    assertFalse(r[1].contains("QueueFromConstant") || r[1].contains("SelfBoundedLru"), r[1]);
    assertEquals("", r[2], "nothing on stderr without --check");
  }

  @Test
  void aDoorThePresetDoesNotCoverIsNamedWhereTheApplicationCallsIt() {
    String[] r = run("--package", "com.acme.doors", CLASSES.toString());
    assertEquals("0", r[0], r[2]);
    assertTrue(r[1].contains("presets = caffeine"), r[1]);
    String comments = r[1].replace("\n#   ", " "); // each comment on one line
    List<String> doors = comments.lines().filter(l -> l.contains("does not cover")).toList();
    assertEquals(
        List.of(
            "# caffeine: com.acme.doors.BulkLoader#warm(java.util.List) calls LoadingCache.getAll"
                + " (BulkLoader.java:15), a door into the cache the preset does not cover: budget"
                + " it with a site of your own (in = com.acme.doors.BulkLoader#warm(java.util.List))"),
        doors,
        r[1]);
  }

  @Test
  void theFileIsOneTheAgentTakesAsItIs() {
    String[] r = run("--package=com.acme.suggest", CLASSES.toString());
    java.util.Properties p = new java.util.Properties();
    try {
      p.load(new java.io.StringReader(r[1]));
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    SitesFile file = SitesFile.parse(p, "suggested");
    assertEquals(List.of(), file.warnings());
    assertEquals(5, file.sites().size(), r[1]);
  }

  @Test
  void checkSaysEachSiteWouldBeWoven() {
    String[] r = run("--check", "--package", "com.acme.suggest", CLASSES.toString());
    assertEquals("0", r[0], r[2]);
    List<String> lines = r[2].lines().toList();
    assertEquals(5, lines.size(), r[2]);
    for (String l : lines) {
      assertTrue(
          l.startsWith("flodl-budget suggest --check: site '")
              && l.contains("' would be woven: com.acme.suggest."),
          l);
    }
  }

  @Test
  void aClassThatNoLongerMakesTheCallFailsTheCheck(@TempDir Path dir) throws IOException {
    // The check reads the classes again: a suggestion against classes that changed is caught.
    ClassFiles files =
        ClassFiles.read(List.of(CLASSES.toString()), n -> n.startsWith("com/acme/suggest/"));
    SuggestCommand.Suggestion s = SuggestCommand.suggest(files);
    ClassFiles other =
        ClassFiles.read(
            List.of(CLASSES.toString()),
            n -> n.startsWith("com/acme/suggest/") && !n.endsWith("/MapInGetter"));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = SuggestCommand.check(s, other, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(1, code);
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains(
                "site 'mapingetter-cache' would not be woven: class com.acme.suggest.MapInGetter was not"
                    + " read"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void librariesAreNeverScannedAndUsageErrorsSayHow(@TempDir Path dir) throws IOException {
    // The agent's own classes are a library's: nothing in them is suggested.
    String[] own = run("target/classes");
    assertEquals("0", own[0], own[2]);
    assertFalse(own[1].contains("site."), own[1]);
    assertTrue(own[1].contains("No cache-admit or prefetch-depth site found"), own[1]);
    assertEquals("2", run()[0]);
    assertEquals("2", run("--frobnicate", "x")[0]);
    String[] missing = run(dir.resolve("nothing-here.jar").toString());
    assertEquals("2", missing[0]);
    assertTrue(missing[2].contains("no such jar, class folder or class file"), missing[2]);
    Files.writeString(dir.resolve("Broken.class"), "not a class");
    String[] broken = run(dir.toString());
    assertEquals("0", broken[0], broken[2]);
    SuggestCommand.Suggestion s =
        SuggestCommand.suggest(ClassFiles.read(List.of(dir.toString()), n -> true));
    assertEquals(1, s.unreadable(), "a class file ASM cannot read is left out and counted");
    assertTrue(
        broken[1].replaceAll("\\s+#\\s+", " ").contains("1 that could not be read left out"),
        broken[1]);
  }

  @Test
  void aFoldersStarIsItsJarsAsJavaCpTakesThem(@TempDir Path dir) throws IOException {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Path a = jar(lib.resolve("a.jar"), FIRST);
    Path b = jar(lib.resolve(".b.JAR"), SECOND); // hidden and upper case: java takes it too
    jar(lib.resolve("not-a-jar.zip"), FIRST);
    jar(Files.createDirectories(lib.resolve("sub")).resolve("nested.jar"), FIRST);
    classes(lib.resolve("classes.jar"), FIRST); // a folder, though named as a jar: left out
    String[] listed = run("--package", "com.acme.suggest", a + File.pathSeparator + b);
    assertEquals("0", listed[0], listed[2]);
    assertEquals(expected("shapes.expected"), blocks(listed[1]));
    String[] star = run("--package", "com.acme.suggest", wildcard(lib));
    assertEquals("0", star[0], star[2]);
    assertEquals("", star[2]);
    assertEquals(blocks(listed[1]), blocks(star[1]));
    assertTrue(
        star[1].startsWith("# Sites suggested by flodl-budget for " + wildcard(lib) + ": "),
        star[1]);
    ClassFiles files = ClassFiles.read(List.of(wildcard(lib)), n -> true);
    assertEquals(List.of(), files.problems());
    assertEquals(FIRST.length + SECOND.length, files.names().size(), files.names().toString());
    // Sorted by name: .b.JAR before a.jar, so the first of a name is .b.JAR's.
    assertEquals("com/acme/suggest/EpochList", files.names().iterator().next());
  }

  @Test
  void aStarWithNoJarOrNoFolderSaysSo(@TempDir Path dir) throws IOException {
    Path empty = classes(dir.resolve("empty"), FIRST); // a class folder: no jar in it
    Files.writeString(empty.resolve("README.txt"), "no jar here");
    String[] none = run(wildcard(empty));
    assertEquals("2", none[0], none[2]);
    assertTrue(
        none[2].contains(
            "flodl-budget suggest: " + wildcard(empty) + ": no jar in " + empty + "\n"),
        none[2]);
    Path nope = dir.resolve("nope");
    String[] missing = run(wildcard(nope));
    assertEquals("2", missing[0], missing[2]);
    assertTrue(missing[2].contains(wildcard(nope) + ": no such folder"), missing[2]);
    // A star among other entries is one problem line; the rest is read.
    String[] mixed =
        run("--package", "com.acme.suggest", CLASSES + File.pathSeparator + wildcard(nope));
    assertEquals("0", mixed[0], mixed[2]);
    assertEquals(1, mixed[2].lines().count(), mixed[2]);
    assertEquals(expected("shapes.expected"), blocks(mixed[1]));
  }

  @Test
  void aClassFolderAndAStarMixOnOneClassPath(@TempDir Path dir) throws IOException {
    Path classes = classes(dir.resolve("classes"), FIRST);
    Path lib = Files.createDirectories(dir.resolve("lib"));
    jar(lib.resolve("second.jar"), SECOND);
    String[] r = run("--package", "com.acme.suggest", classes + File.pathSeparator + wildcard(lib));
    assertEquals("0", r[0], r[2]);
    assertEquals("", r[2]);
    assertEquals(expected("shapes.expected"), blocks(r[1]));
    // '*' alone is the current folder's jars (the module's, which has none or only libraries').
    ClassFiles here = ClassFiles.read(List.of("*"), n -> false);
    assertTrue(
        here.problems().equals(List.of("*: no jar in ."))
            || here.problems().isEmpty() && !here.names().isEmpty(),
        here.problems().toString());
  }

  /**
   * The Scala 2.13, Scala 3 and Kotlin apps ({@code test-apps/scala-app}, {@code scala3-app},
   * {@code kotlin-app}), compiled by their own compilers: each one's memoizing collection in a
   * field and its bounded queue, found with the batch method that drains it (through Scala's
   * private accessors in 2.13); in Scala a {@code +=} whose result is dropped, not an {@code
   * addOne} chained on (a declined call returns null); printed exactly as {@code
   * suggest/NAME.expected} says.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"scala", "scala3", "kotlin"})
  void theOtherLanguagesCollectionsAndQueuesAreFound(String app) throws IOException {
    Path classes =
        Path.of(System.getProperty("flodl.it.testApps", "../test-apps"))
            .resolve(app + "-app/target/classes");
    assertTrue(
        Files.isDirectory(classes),
        "test-apps/"
            + app
            + "-app is not built: "
            + classes
            + " (the agent's build orders it first; mvn -B -pl agent -am verify)");
    String[] r = run(classes.toString());
    assertEquals("0", r[0], r[2]);
    assertEquals(expected(app + ".expected"), blocks(r[1]), r[1]);
    assertEquals("", r[2]);
  }
}
