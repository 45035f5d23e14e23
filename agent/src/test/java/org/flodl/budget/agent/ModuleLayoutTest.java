package org.flodl.budget.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.events.CacheAdmissionEvent;
import org.flodl.budget.policy.BudgetPolicy;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.share.HostShare;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.commons.ClassRemapper;
import org.objectweb.asm.commons.Remapper;
import org.objectweb.asm.tree.ClassNode;

/**
 * What each module's classes may depend on, as the README's layout table says, read from the class
 * files themselves (every type a class names, in its signatures and its instructions, and every
 * field it reads): {@code policy} on the JDK alone, with no thread, file, process, console output,
 * reflection or {@code Instrumentation}; {@code probes} and {@code pricing} on {@code policy} and
 * the JDK; {@code share} and {@code jfr-events} on the JDK alone. Only the agent module brings them
 * together.
 */
class ModuleLayoutTest {
  private static final String OWN = "org/flodl/budget/";

  /**
   * What no class of the policy module may name: its side effects live in other modules. (The
   * ledger reads the current thread's id to pick its stripe; making or starting one is banned.)
   */
  private static final List<String> SIDE_EFFECTS =
      List.of(
          "java/lang/Thread.<init>",
          "java/lang/Thread.start",
          "java/lang/Thread.sleep",
          "java/lang/Thread.join",
          "java/lang/ThreadGroup",
          "java/lang/Runtime",
          "java/lang/Process",
          "java/lang/ProcessBuilder",
          "java/lang/System.out",
          "java/lang/System.err",
          "java/lang/System.exit",
          "java/lang/System.getenv",
          "java/lang/System.getProperty",
          "java/lang/instrument/",
          "java/lang/reflect/",
          "java/lang/management/",
          "java/io/",
          "java/nio/",
          "java/net/",
          "java/util/concurrent/Executor",
          "java/util/concurrent/ThreadPool",
          "java/util/concurrent/ScheduledExecutor",
          "java/util/concurrent/ForkJoin",
          "java/util/Timer",
          "java/util/logging/",
          "jdk/",
          "sun/",
          "com/sun/");

  @Test
  void policyNamesTheJdkAloneAndNothingWithASideEffect() throws Exception {
    Set<String> refs = references(BudgetPolicy.class);
    assertOnly(refs, "policy", ownPackages("policy"));
    List<String> effects = new ArrayList<>();
    for (String r : refs) {
      for (String banned : SIDE_EFFECTS) {
        if (r.startsWith(banned)) {
          effects.add(r);
        }
      }
    }
    assertEquals(List.of(), effects, "policy must stay free of side effects");
  }

  @Test
  void probesAndPricingBuildOnPolicyAlone() throws Exception {
    assertOnly(references(MemoryProbes.class), "probes", ownPackages("policy", "probes"));
    assertOnly(references(RetentionPricer.class), "pricing", ownPackages("policy", "pricing"));
  }

  @Test
  void shareAndTheEventsStandOnTheJdk() throws Exception {
    assertOnly(references(HostShare.class), "share", ownPackages("share"));
    assertOnly(references(CacheAdmissionEvent.class), "jfr-events", ownPackages("events"));
    assertOnly(
        references(org.flodl.budget.testing.ChildProcess.class),
        "test-support",
        ownPackages("testing"));
  }

  @Test
  void theFindingsAreTheJdksAloneAndReadNothingThemselves() throws Exception {
    // One law for the report and Mission Control's rules: facts in, findings out, no reader
    // (the policy only for how bytes are spelled).
    Set<String> refs = references(org.flodl.budget.findings.Findings.class);
    assertOnly(refs, "findings", ownPackages("findings", "policy"));
    assertTrue(
        refs.stream()
            .noneMatch(
                r ->
                    r.startsWith("jdk/jfr/")
                        || r.startsWith("java/io/")
                        || r.startsWith("java/nio/")),
        "findings read no recording: " + refs);
  }

  @Test
  void theScanSeesWhatAClassNames() throws Exception {
    // The scan itself: the agent's own classes name the policy, the weaver and the JDK's
    // instrumentation, so a scan that found none of them would be reading nothing.
    Set<String> agent = references(Bootstrap.class);
    assertTrue(agent.contains("java/lang/instrument/Instrumentation"), "Instrumentation");
    assertTrue(agent.stream().anyMatch(r -> r.startsWith(OWN + "policy/")), "policy");
    assertTrue(references(HostShare.class).contains("java/lang/Thread"), "share's thread");
  }

  @Test
  void theGateNamesNoLibraryNorTheCommandsNorTheWeaver() throws Exception {
    // Woven code calls the gate; the gate knows libraries only through library/Library.
    Set<String> refs = references(Bootstrap.class, OWN + "agent/gate/");
    assertTrue(refs.contains(OWN + "agent/library/Library"), "the scan reads the gate: " + refs);
    List<String> banned =
        libraryPackages(
            OWN + "agent/report/",
            OWN + "agent/suggest/",
            OWN + "agent/weave/",
            OWN + "agent/control/",
            OWN + "agent/record/");
    assertTrue(banned.size() >= 11, "the six libraries' packages: " + banned);
    assertEquals(Set.of(), named(refs, banned), "the gate may not name these");
  }

  @Test
  void theRuntimeNamesNoLibraryAndNotTheCommandLine() throws Exception {
    // What runs in the application's JVM (and what woven code can reach) knows libraries only
    // through library/Library, and the command line (report, suggest, attach) not at all. Each
    // runtime package read from its own module: the engine's, the configuration's, the SPI's.
    List<String> banned =
        libraryPackages(
            OWN + "agent/report/", OWN + "agent/suggest/", OWN + "agent/cli/", OWN + "findings/");
    Map<String, Class<?>> runtime =
        Map.of(
            "config", org.flodl.budget.agent.config.AgentConfig.class,
            "control", Bootstrap.class,
            "gate", Bootstrap.class,
            "library", Library.class,
            "record", Bootstrap.class,
            "weave", Bootstrap.class);
    for (Map.Entry<String, Class<?>> r : runtime.entrySet()) {
      Set<String> refs = references(r.getValue(), OWN + "agent/" + r.getKey() + "/");
      assertEquals(Set.of(), named(refs, banned), r.getKey() + " may not name these");
    }
    // The library SPI itself names the JDK, the pricing's SPI (a library's TypePricer), the
    // probes' readings (what a depth adapter asks of the engine) and the policy alone: a unit
    // compiles against them and nothing else.
    Set<String> spi = references(Library.class);
    assertOnly(
        spi,
        "library-spi",
        r ->
            r.startsWith(OWN + "agent/library/")
                || r.startsWith(OWN + "pricing/")
                || r.startsWith(OWN + "probes/")
                || r.startsWith(OWN + "policy/"));
  }

  @Test
  void eachLibraryIsAModuleOfItsOwnThatNamesNothingOfTheEngine() throws Exception {
    // Issue 61: a library unit sees the SPI only. Each unit's classes are read from its own
    // module (libraries/NAME), and none names the engine's packages (the gate, the weaver, the
    // configuration, the recording, control, the agent's entry classes) or a command's.
    Path engine = codeSource(Bootstrap.class);
    Path spi = codeSource(Library.class);
    List<String> engineOrCommands =
        List.of(
            OWN + "agent/gate/",
            OWN + "agent/weave/",
            OWN + "agent/config/",
            OWN + "agent/record/",
            OWN + "agent/control/",
            OWN + "agent/cli/",
            OWN + "agent/report/",
            OWN + "agent/suggest/",
            OWN + "share/",
            OWN + "findings/");
    Set<Path> modules = new TreeSet<>();
    for (Library l : Library.all()) {
      Path module = codeSource(l.getClass());
      assertTrue(
          !module.equals(engine) && !module.equals(spi) && modules.add(module),
          l.name() + "'s unit is a module of its own: " + module);
      String own = OWN + l.getClass().getPackageName().replace("org.flodl.budget.", "");
      Set<String> refs = references(l.getClass(), own.replace('.', '/') + "/");
      Set<String> named = named(refs, engineOrCommands);
      // The agent's entry classes sit in the engine's root package, beside its subpackages.
      refs.stream().filter(r -> r.matches(OWN + "agent/[A-Za-z]+(\\..*)?")).forEach(named::add);
      assertEquals(Set.of(), named, l.name() + "'s unit may not name the engine");
      assertTrue(
          refs.stream().anyMatch(r -> r.startsWith(OWN + "agent/library/")),
          l.name() + "'s unit is read (it names the SPI): " + refs);
    }
    assertTrue(modules.size() >= 9, "the nine units: " + modules);
  }

  /** Returns {@code others} and the package (internal form) of every library's support. */
  private static List<String> libraryPackages(String... others) {
    List<String> packages = new ArrayList<>(List.of(others));
    for (Library l : Library.all()) {
      packages.add(l.getClass().getPackageName().replace('.', '/') + "/");
    }
    return packages;
  }

  /** Returns the references of {@code refs} under one of {@code banned}. */
  private static Set<String> named(Set<String> refs, List<String> banned) {
    Set<String> named = new TreeSet<>();
    for (String r : refs) {
      for (String b : banned) {
        if (r.startsWith(b)) {
          named.add(r);
        }
      }
    }
    return named;
  }

  @Test
  void aLibrarysNameIsWrittenInItsOwnSupportAlone() throws Exception {
    // Adding a library is one module: no other production file says its name as a string (the
    // djl=on|off switch reads onByDefault(), not "djl").
    List<Path> roots = engineSources();
    for (Library l : Library.all()) {
      String own = l.getClass().getPackageName().replace('.', '/');
      Set<String> naming = new TreeSet<>();
      for (Path main : roots) {
        try (Stream<Path> files = Files.walk(main)) {
          for (Path p : (Iterable<Path>) files::iterator) {
            if (p.toString().endsWith(".java")
                && Files.readString(p).contains("\"" + l.name() + "\"")) {
              naming.add(main.relativize(p).toString().replace('\\', '/'));
            }
          }
        }
      }
      assertTrue(
          naming.stream().allMatch(f -> f.startsWith(own + "/")),
          l.name() + " is named outside " + own + ": " + naming);
    }
  }

  /**
   * Returns the source folders of what the agent module held before it was split (issue 61): the
   * engine, the library SPI, the configuration, each library's module and each command's, read from
   * the agent module's folder, and {@code more} modules beside them.
   */
  private static List<Path> engineSources(String... more) throws IOException {
    Path root = Path.of("..");
    assertTrue(Files.isDirectory(Path.of("src/main/java")), "run from the agent module");
    List<Path> roots = new ArrayList<>();
    List<String> modules = new ArrayList<>(List.of("agent", "library-spi", "config"));
    modules.addAll(List.of(more));
    for (String module : modules) {
      roots.add(root.resolve(module).resolve("src/main/java"));
    }
    for (String parent : List.of("libraries", "commands")) {
      try (Stream<Path> children = Files.list(root.resolve(parent))) {
        children
            .map(m -> m.resolve("src/main/java"))
            .filter(Files::isDirectory)
            .sorted()
            .forEach(roots::add);
      }
    }
    for (Path r : roots) {
      assertTrue(Files.isDirectory(r), "a production module's sources: " + r.toAbsolutePath());
    }
    assertTrue(
        roots.size() >= 3 + 9 + 2, "the engine's, the nine libraries', the commands': " + roots);
    return roots;
  }

  @Test
  void thePricingNamesNoLibrary() throws Exception {
    // The generic law lives in pricing; a library's types are priced by its own unit's
    // TypePricer (issue 41).
    Path main = Path.of("../pricing/src/main/java");
    assertTrue(Files.isDirectory(main), "run from the agent module: " + main.toAbsolutePath());
    Set<String> naming = new TreeSet<>();
    try (Stream<Path> files = Files.walk(main)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (p.toString().endsWith(".java")) {
          String text = Files.readString(p);
          for (String name : List.of("ai.djl", "org.nd4j", "org.apache.arrow", "io.netty")) {
            if (text.contains(name)) {
              naming.add(main.relativize(p) + ": " + name);
            }
          }
        }
      }
    }
    assertEquals(Set.of(), naming, "library names in pricing");
  }

  @Test
  void noProductionClassOfTheEngineThePolicyOrThePricingIsOver400Lines() throws Exception {
    // Issue 29's ceiling, over the engine's modules, the policy and the pricing: a class that needs
    // more is split along its jobs (see gate/Budgets, which grew past it unseen once).
    Set<String> over = new TreeSet<>();
    for (Path main : engineSources("policy", "pricing")) {
      try (Stream<Path> files = Files.walk(main)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (p.toString().endsWith(".java")) {
            long lines = Files.readAllLines(p).size();
            if (lines > 400) {
              over.add(main.relativize(p) + " (" + lines + " lines)");
            }
          }
        }
      }
    }
    assertEquals(Set.of(), over, "over 400 lines");
  }

  private static Predicate<String> ownPackages(String... modules) {
    return r -> {
      for (String m : modules) {
        if (r.startsWith(OWN + m + "/")) {
          return true;
        }
      }
      return false;
    };
  }

  /** Asserts that every reference of a module outside the JDK is to one of {@code allowed}. */
  private static void assertOnly(Set<String> refs, String module, Predicate<String> allowed) {
    Set<String> foreign = new TreeSet<>();
    for (String r : refs) {
      String type = r.contains(".") ? r.substring(0, r.indexOf('.')) : r;
      boolean jdk =
          type.startsWith("java/")
              || type.startsWith("javax/")
              || type.startsWith("jdk/")
              || type.startsWith("sun/")
              || type.startsWith("com/sun/");
      if (!jdk && !allowed.test(type)) {
        foreign.add(type);
      }
    }
    assertEquals(Set.of(), foreign, module + " may not name these");
  }

  /**
   * Returns every type (as an internal name) and every field ({@code owner.name}) the classes of
   * {@code anchor}'s module name, the module read from its classes folder or its jar.
   */
  private static Set<String> references(Class<?> anchor) throws IOException, URISyntaxException {
    return references(anchor, "");
  }

  /** Returns the references of the classes of {@code anchor}'s module under {@code prefix}. */
  private static Set<String> references(Class<?> anchor, String prefix)
      throws IOException, URISyntaxException {
    Path where = codeSource(anchor);
    Set<String> refs = new TreeSet<>();
    Set<String> own = new TreeSet<>();
    int classes = 0;
    for (byte[] bytes : classFiles(where)) {
      ClassReader reader = new ClassReader(bytes);
      if (!reader.getClassName().startsWith(prefix)) {
        continue;
      }
      own.add(reader.getClassName());
      reader.accept(
          new ClassRemapper(
              new ClassNode(),
              new Remapper(Opcodes.ASM9) {
                @Override
                public String map(String internalName) {
                  refs.add(element(internalName));
                  return internalName;
                }

                @Override
                public String mapFieldName(String owner, String name, String descriptor) {
                  refs.add(element(owner) + "." + name);
                  return name;
                }

                @Override
                public String mapMethodName(String owner, String name, String descriptor) {
                  refs.add(element(owner) + "." + name);
                  return name;
                }
              }),
          0);
      classes++;
    }
    // The anchor itself read (or, under a prefix, some class): a scan that read nothing fails.
    assertTrue(
        prefix.isEmpty() ? own.contains(anchor.getName().replace('.', '/')) : classes > 0,
        "no classes read from " + where + " under '" + prefix + "'");
    refs.remove("");
    // A class's own members are no dependency.
    refs.removeIf(r -> own.contains(r.contains(".") ? r.substring(0, r.indexOf('.')) : r));
    return refs;
  }

  /** Returns the classes folder or the jar {@code c} was loaded from. */
  private static Path codeSource(Class<?> c) throws URISyntaxException {
    return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).normalize();
  }

  /** Returns an array's element type ("[Lorg/x/Y;" names org/x/Y), "" for a primitive one. */
  private static String element(String internalName) {
    String t = internalName.replaceFirst("^\\[+", "");
    if (t.equals(internalName)) {
      return t;
    }
    return t.startsWith("L") && t.endsWith(";") ? t.substring(1, t.length() - 1) : "";
  }

  private static List<byte[]> classFiles(Path where) throws IOException {
    List<byte[]> out = new ArrayList<>();
    if (Files.isDirectory(where)) {
      try (Stream<Path> files = Files.walk(where)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          if (p.toString().endsWith(".class")) {
            out.add(Files.readAllBytes(p));
          }
        }
      }
      return out;
    }
    try (JarFile jar = new JarFile(where.toFile())) {
      for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
        if (e.getName().endsWith(".class") && !e.getName().startsWith("META-INF/")) {
          try (InputStream in = jar.getInputStream(e)) {
            out.add(in.readAllBytes());
          }
        }
      }
    }
    return out;
  }
}
