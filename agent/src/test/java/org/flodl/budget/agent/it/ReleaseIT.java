package org.flodl.budget.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.flodl.budget.testing.ChildProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The release as a build fetches it: {@code mvn -B -Prelease package} run again, on a copy of this
 * commit's sources in another folder, writes an agent jar byte for byte the one this build wrote
 * (reproducible: {@code project.build.outputTimestamp}), its SHA-256 as {@code sha256sum -c} reads
 * it, a CycloneDX SBOM that lists every library inside the jar with the version the build took, and
 * the sources of the modules shaded in.
 */
@Tag("slow")
class ReleaseIT {
  static final Path ROOT =
      Path.of(System.getProperty("flodl.it.projectRoot", "..")).toAbsolutePath().normalize();
  static final String VERSION = System.getProperty("flodl.it.version", "0.1.0-SNAPSHOT");
  static Path copy;
  static Path release;

  @BeforeAll
  static void buildTheReleaseAgainElsewhere() throws Exception {
    String mavenHome = System.getProperty("flodl.it.mavenHome", "");
    Path mvn = Path.of(mavenHome, "bin", "mvn");
    Preconditions.require(
        !mavenHome.isEmpty() && Files.isExecutable(mvn),
        "no Maven to run (flodl.it.mavenHome: '" + mavenHome + "')");
    copy = ChildJvm.WORK.resolve("release-copy").toAbsolutePath();
    deleteTree(copy);
    copySources(ROOT, copy);
    Path log = ChildJvm.WORK.resolve("release-build.log").toAbsolutePath();
    List<String> cmd =
        new ArrayList<>(
            List.of(
                mvn.toString(),
                "-B",
                "-Prelease",
                "package",
                "-Dmaven.test.skip=true",
                "-pl",
                "agent",
                "-am"));
    String repo = System.getProperty("flodl.it.localRepository", "");
    if (!repo.isEmpty()) {
      cmd.add("-Dmaven.repo.local=" + repo);
    }
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(copy.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    ChildProcess.clean(pb.environment());
    Process p = pb.start();
    if (!p.waitFor(540, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      throw new AssertionError("the release build ran past 540 s: " + tail(log));
    }
    assertEquals(0, p.exitValue(), "the release build failed: " + tail(log));
    release = copy.resolve("agent/target");
  }

  @Test
  void twoBuildsOfOneCommitGiveTheSameJar() throws Exception {
    Path mine = ChildJvm.AGENT_JAR.toAbsolutePath();
    Path theirs = release.resolve("flodl-budget-agent.jar");
    byte[] a = Files.readAllBytes(mine);
    byte[] b = Files.readAllBytes(theirs);
    if (!java.util.Arrays.equals(a, b)) {
      throw new AssertionError(
          "the jars differ ("
              + a.length
              + " and "
              + b.length
              + " bytes; "
              + "in a build folder kept from before, a module's jar may be older than its sources' "
              + "settings: mvn clean verify): "
              + differences(mine, theirs));
    }
  }

  @Test
  void theChecksumIsTheJarsSha256AsSha256sumReadsIt() throws Exception {
    Path jar = release.resolve("flodl-budget-agent.jar");
    String line = Files.readString(release.resolve("flodl-budget-agent.jar.sha256")).trim();
    String sha =
        HexFormat.of()
            .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(jar)));
    assertEquals(sha + " *flodl-budget-agent.jar", line);
  }

  @Test
  void theSbomListsEveryLibraryInsideWithItsVersion() throws Exception {
    String bom = Files.readString(release.resolve("flodl-budget-agent.cdx.json"));
    Map<String, String> components = components(bom);
    assertTrue(bom.contains("\"bomFormat\" : \"CycloneDX\""), bom.substring(0, 200));
    // Each class of the jar belongs to the agent's own package or to a component of the SBOM.
    Map<String, String> roots = new LinkedHashMap<>();
    roots.put("org/flodl/budget/shaded/asm/tree/analysis/", "org.ow2.asm:asm-analysis");
    roots.put("org/flodl/budget/shaded/asm/tree/", "org.ow2.asm:asm-tree");
    roots.put("org/flodl/budget/shaded/asm/commons/", "org.ow2.asm:asm-commons");
    roots.put("org/flodl/budget/shaded/asm/", "org.ow2.asm:asm");
    roots.put("org/flodl/budget/policy/", "org.flodl.budget:flodl-budget-policy");
    roots.put("org/flodl/budget/probes/", "org.flodl.budget:flodl-budget-probes");
    roots.put("org/flodl/budget/pricing/", "org.flodl.budget:flodl-budget-pricing");
    roots.put("org/flodl/budget/share/", "org.flodl.budget:flodl-budget-share");
    roots.put("org/flodl/budget/events/", "org.flodl.budget:flodl-budget-jfr-events");
    roots.put("org/flodl/budget/findings/", "org.flodl.budget:flodl-budget-findings");
    // The engine's modules, each library's and each command's (issue 61), before the engine's
    // own root package, which holds them.
    roots.put("org/flodl/budget/agent/library/", "org.flodl.budget:flodl-budget-library-spi");
    roots.put("org/flodl/budget/agent/config/", "org.flodl.budget:flodl-budget-config");
    roots.put("org/flodl/budget/agent/report/", "org.flodl.budget:flodl-budget-report");
    roots.put("org/flodl/budget/agent/suggest/", "org.flodl.budget:flodl-budget-suggest");
    for (String l :
        List.of("caffeine", "guava", "jcache", "ehcache", "djl", "dl4j", "arrow", "netty", "ffm")) {
      roots.put("org/flodl/budget/agent/" + l + "/", "org.flodl.budget:flodl-budget-library-" + l);
    }
    roots.put("org/flodl/budget/agent/", "(the agent)");
    TreeSet<String> used = new TreeSet<>();
    TreeSet<String> orphans = new TreeSet<>();
    String nestedJna = null;
    try (ZipFile jar = new ZipFile(release.resolve("flodl-budget-agent.jar").toFile())) {
      for (Enumeration<? extends ZipEntry> en = jar.entries(); en.hasMoreElements(); ) {
        ZipEntry e = en.nextElement();
        if (e.getName().equals("META-INF/flodl-budget/jna.jar")) {
          try (InputStream in = jar.getInputStream(e);
              JarInputStream nested = new JarInputStream(in)) {
            Manifest m = nested.getManifest();
            nestedJna = m.getMainAttributes().getValue("Bundle-Version");
          }
          used.add("net.java.dev.jna:jna");
          continue;
        }
        if (!e.getName().endsWith(".class")) {
          continue;
        }
        // The command line's classes, off the class path (PackagingIT), belong as they would.
        String name =
            e.getName().startsWith(PackagingIT.CLI)
                ? e.getName().substring(PackagingIT.CLI.length())
                : e.getName();
        String owner = null;
        for (Map.Entry<String, String> r : roots.entrySet()) {
          if (name.startsWith(r.getKey())) {
            owner = r.getValue();
            break;
          }
        }
        if (owner == null) {
          orphans.add(e.getName());
        } else {
          used.add(owner);
        }
      }
    }
    assertTrue(
        orphans.isEmpty(),
        "classes of no SBOM component (add the library to the SBOM "
            + "and to this check): "
            + orphans);
    used.remove("(the agent)");
    assertEquals(
        used,
        new TreeSet<>(components.keySet()),
        "the SBOM's components are what is " + "inside the jar: " + components);
    String asm = System.getProperty("flodl.it.asmVersion", "");
    for (String a : List.of("asm", "asm-commons", "asm-tree", "asm-analysis")) {
      assertEquals(asm, components.get("org.ow2.asm:" + a), a);
    }
    assertEquals(nestedJna, components.get("net.java.dev.jna:jna"), "the nested JNA's version");
    assertEquals(System.getProperty("flodl.it.jnaVersion", ""), nestedJna);
    for (Map.Entry<String, String> c : components.entrySet()) {
      if (c.getKey().startsWith("org.flodl.budget:")) {
        assertEquals(VERSION, c.getValue(), c.getKey());
      }
    }
  }

  @Test
  void theSourcesJarHoldsTheSourceOfEveryOwnClass() throws Exception {
    TreeSet<String> sources = new TreeSet<>();
    try (ZipFile src = new ZipFile(release.resolve("flodl-budget-agent-sources.jar").toFile())) {
      src.stream().forEach(e -> sources.add(e.getName()));
    }
    TreeSet<String> missing = new TreeSet<>();
    try (ZipFile jar = new ZipFile(release.resolve("flodl-budget-agent.jar").toFile())) {
      for (Enumeration<? extends ZipEntry> en = jar.entries(); en.hasMoreElements(); ) {
        String n = en.nextElement().getName();
        if (n.startsWith("org/flodl/budget/")
            && !n.startsWith("org/flodl/budget/shaded/")
            && n.endsWith(".class")
            && !n.contains("$")) {
          String java = n.substring(0, n.length() - ".class".length()) + ".java";
          if (!sources.contains(java)) {
            missing.add(java);
          }
        }
      }
    }
    assertTrue(missing.isEmpty(), "no source for " + missing);
  }

  /** Returns the SBOM's components, {@code group:name} to version (the agent itself left out). */
  static Map<String, String> components(String bom) {
    // The top-level list: after the metadata (whose tools and component name the plugin and
    // the agent itself), before the dependency graph.
    int end = bom.indexOf("\"dependencies\"");
    int start = bom.lastIndexOf("\"components\"", end);
    assertTrue(start > 0 && end > start, "no components in the SBOM");
    Matcher m =
        Pattern.compile(
                "\"group\" : \"([^\"]+)\",\\s*\"name\" : \"([^\"]+)\",\\s*"
                    + "\"version\" : \"([^\"]+)\"")
            .matcher(bom.substring(start, end));
    Map<String, String> out = new LinkedHashMap<>();
    while (m.find()) {
      out.put(m.group(1) + ":" + m.group(2), m.group(3));
    }
    return out;
  }

  /** Returns the entries whose bytes, time or order differ between the two jars. */
  static String differences(Path a, Path b) throws IOException {
    List<String> out = new ArrayList<>();
    try (ZipFile za = new ZipFile(a.toFile());
        ZipFile zb = new ZipFile(b.toFile())) {
      List<String> na = za.stream().map(ZipEntry::getName).toList();
      List<String> nb = zb.stream().map(ZipEntry::getName).toList();
      if (!na.equals(nb)) {
        out.add("entry order or names differ (" + na.size() + " and " + nb.size() + ")");
      }
      for (String n : na) {
        ZipEntry ea = za.getEntry(n);
        ZipEntry eb = zb.getEntry(n);
        if (eb == null) {
          out.add(n + " only in the first");
        } else if (ea.getCrc() != eb.getCrc() || ea.getTime() != eb.getTime()) {
          out.add(
              n
                  + " (crc "
                  + ea.getCrc()
                  + "/"
                  + eb.getCrc()
                  + ", time "
                  + ea.getTime()
                  + "/"
                  + eb.getTime()
                  + ")");
        }
        if (out.size() > 20) {
          break;
        }
      }
    }
    return out.isEmpty() ? "the same entries: the zip headers differ" : String.join("; ", out);
  }

  /** Copies the sources of the project at {@code from}: no build output, no git folder. */
  static void copySources(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
            if (!dir.equals(from)
                && (name.equals("target")
                    || name.equals(".git")
                    || name.equals("node_modules")
                    || dir.startsWith(to))) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            Files.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            if (attrs.isRegularFile()) {
              Files.copy(
                  file,
                  to.resolve(from.relativize(file).toString()),
                  StandardCopyOption.COPY_ATTRIBUTES);
            }
            return FileVisitResult.CONTINUE;
          }
        });
  }

  static void deleteTree(Path p) throws IOException {
    if (!Files.exists(p)) {
      return;
    }
    try (var walk = Files.walk(p)) {
      for (Path f : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    }
  }

  static String tail(Path log) throws IOException {
    String s = Files.exists(log) ? Files.readString(log) : "";
    return s.length() > 6000 ? "..." + s.substring(s.length() - 6000) : s;
  }
}
