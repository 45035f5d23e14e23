package org.flodl.budget.agent.suggest;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.config.SitesFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * {@code java -jar flodl-budget-agent.jar suggest [--package PREFIX]... [--check] PATH...}: reads
 * the class files of PATH (a class path as {@code java -cp} takes it, {@code lib/*} wildcards
 * included: jars, class folders, class files; nothing is loaded or run) and prints a sites file for
 * the application in them: each cache-admit and prefetch-depth site its bytecode shows, commented
 * with the evidence and where it is, strongest first, and a {@code presets} line for the libraries
 * a preset covers. {@code --check} then says, on stderr, whether the agent would take each site.
 * Exit 0 done, 1 a check failed, 2 bad usage. Over 300 lines for one job, the command's output: the
 * finding itself is {@link SiteFinder}'s; here each block is written with its evidence, and
 * checked.
 */
public final class SuggestCommand {
  static final String USAGE =
      "usage: java -jar flodl-budget-agent.jar suggest [--package PREFIX]... [--check] PATH...";
  private static final int WIDTH = 98;

  private SuggestCommand() {}

  /** Runs the command; returns its exit code. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    List<String> packages = new ArrayList<>();
    List<String> paths = new ArrayList<>();
    boolean check = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--check")) {
        check = true;
      } else if (a.equals("--package") && i + 1 < args.length) {
        packages.add(args[++i]);
      } else if (a.startsWith("--package=")) {
        packages.add(a.substring("--package=".length()));
      } else if (a.equals("-h") || a.equals("--help")) {
        out.println(USAGE);
        return 0;
      } else if (a.startsWith("-")) {
        err.println("flodl-budget suggest: unknown option '" + a + "'");
        err.println(USAGE);
        return 2;
      } else {
        paths.add(a);
      }
    }
    if (paths.isEmpty()) {
      err.println(USAGE);
      return 2;
    }
    Predicate<String> application =
        packages.isEmpty()
            ? name -> !Libraries.isLibrary(name)
            : name -> Libraries.inPackages(name, packages);
    ClassFiles files = ClassFiles.read(paths, application);
    for (String p : files.problems()) {
      err.println("flodl-budget suggest: " + p);
    }
    if (files.names().isEmpty()) {
      err.println("flodl-budget suggest: no class file in " + String.join(" ", paths));
      return 2;
    }
    Suggestion s = suggest(files);
    out.print(render(s, paths, packages));
    out.flush();
    return check ? check(s, files, err) : 0;
  }

  /** What the scan found. */
  record Suggestion(
      List<Candidate> sites,
      Map<String, List<String>> presets,
      List<String> uncovered,
      List<String> priced,
      int classes,
      int scanned,
      int unreadable) {}

  /** Returns the sites and presets of the application in {@code files}. */
  static Suggestion suggest(ClassFiles files) {
    List<Candidate> found = new ArrayList<>();
    Map<String, List<String>> presets = new LinkedHashMap<>();
    List<String> priced = new ArrayList<>();
    List<String> uncovered = new ArrayList<>();
    for (Libraries.Preset p : Libraries.PRESETS) {
      if (files.names().contains(p.marker())) {
        if (p.hasPreset()) {
          presets.put(p.name(), new ArrayList<>());
        } else {
          priced.add(p.name());
        }
      }
    }
    int unreadable = 0;
    for (Map.Entry<String, byte[]> c : files.kept().entrySet()) {
      try {
        found.addAll(SiteFinder.find(c.getValue(), files.kept()::get));
        LibraryUses.add(c.getValue(), presets, uncovered);
      } catch (RuntimeException e) {
        unreadable++; // a class file ASM cannot read is left out, and counted
      }
    }
    found.sort(
        Comparator.comparingInt(Candidate::sure)
            .thenComparing(Candidate::className)
            .thenComparing(Candidate::kind));
    Set<String> names = new HashSet<>();
    List<Candidate> unique = new ArrayList<>();
    for (Candidate c : found) {
      String name = c.name();
      for (int i = 2; !names.add(name); i++) {
        name = c.name() + "-" + i;
      }
      unique.add(
          name.equals(c.name())
              ? c
              : new Candidate(
                  c.kind(),
                  name,
                  c.in(),
                  c.method(),
                  c.value(),
                  c.release(),
                  c.decline(),
                  c.depth(),
                  c.batch(),
                  c.sure(),
                  c.why(),
                  c.className(),
                  c.inName(),
                  c.inDescriptor()));
    }
    return new Suggestion(
        unique, presets, uncovered, priced, files.names().size(), files.kept().size(), unreadable);
  }

  /** Returns the sites file. */
  static String render(Suggestion s, List<String> paths, List<String> packages) {
    StringBuilder b = new StringBuilder();
    comment(
        b,
        "Sites suggested by flodl-budget for "
            + shown(paths)
            + ": "
            + s.classes()
            + " classes, "
            + s.scanned()
            + " of them the application's and read"
            + (packages.isEmpty() ? "" : " (packages " + String.join(", ", packages) + ")")
            + ", none loaded"
            + (s.unreadable() == 0
                ? ""
                : ", " + s.unreadable() + " that could not be read left out")
            + ".");
    comment(
        b,
        "Each block says what was found, where, and how sure the evidence is. Try it as "
            + "it is, watching first: -javaagent:flodl-budget-agent.jar=sites=THIS_FILE,mode=observe"
            + ",record=run.jfr; then `java -jar flodl-budget-agent.jar report run.jfr` shows each "
            + "site's decisions under the names below; drop mode=observe to enforce.");
    b.append('\n');
    if (!s.presets().isEmpty()) {
      b.append("presets = ").append(String.join(",", s.presets().keySet())).append('\n');
      for (Map.Entry<String, List<String>> p : s.presets().entrySet()) {
        Libraries.Preset preset =
            Libraries.PRESETS.stream()
                .filter(x -> x.name().equals(p.getKey()))
                .findFirst()
                .orElseThrow();
        List<String> uses = p.getValue();
        String text =
            p.getKey()
                + ": "
                + preset.covers()
                + "; "
                + (uses.isEmpty()
                    ? "the library is on the class path."
                    : "the application uses it in "
                        + String.join("; ", uses.subList(0, Math.min(LibraryUses.MAX, uses.size())))
                        + (uses.size() > LibraryUses.MAX ? "; and more" : "")
                        + ".");
        comment(b, text);
      }
      for (String door : s.uncovered()) {
        comment(b, door);
      }
      b.append('\n');
    }
    for (String name : s.priced()) {
      Libraries.Preset lib =
          Libraries.PRESETS.stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
      comment(
          b,
          name
              + ": "
              + lib.covers()
              + "; on the class path, with no preset: its values are priced so wherever a site"
              + " admits one, and a declined one is released once the application no longer"
              + " reaches it.");
    }
    if (!s.priced().isEmpty()) {
      b.append('\n');
    }
    if (s.sites().isEmpty()) {
      comment(
          b,
          "No cache-admit or prefetch-depth site found in the application's classes: no "
              + "value stored into a field's map or collection, no bounded queue sized at run time.");
      return b.toString();
    }
    for (Candidate c : s.sites()) {
      comment(b, "[" + c.sureness() + "] " + String.join(" ", c.why()));
      Map<String, String> fields = new LinkedHashMap<>();
      fields.put("kind", c.kind());
      fields.put("in", c.in());
      fields.put("method", c.method());
      if (c.value() != null) {
        fields.put("value", c.value());
      }
      if (c.release() != null) {
        fields.put("release", c.release());
      }
      if (c.decline() != null) {
        fields.put("decline", c.decline());
      }
      if (c.depth() >= 0) {
        fields.put("depth", Integer.toString(c.depth()));
      }
      if (c.batch() != null) {
        fields.put("batch", c.batch());
      }
      int width = 0;
      for (String k : fields.keySet()) {
        width = Math.max(width, k.length());
      }
      for (Map.Entry<String, String> f : fields.entrySet()) {
        b.append("site.")
            .append(c.name())
            .append('.')
            .append(f.getKey())
            .append(" ".repeat(width - f.getKey().length()))
            .append(" = ")
            .append(f.getValue())
            .append('\n');
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** Returns the paths as the header names them: the first three entries, then a count. */
  private static String shown(List<String> paths) {
    List<String> entries = new ArrayList<>();
    for (String p : paths) {
      for (String e : p.split(java.io.File.pathSeparator)) {
        if (!e.isBlank()) {
          entries.add(e);
        }
      }
    }
    return entries.size() <= 3
        ? String.join(" ", entries)
        : String.join(" ", entries.subList(0, 3)) + " and " + (entries.size() - 3) + " more";
  }

  /** Appends {@code text} as comment lines of at most {@value #WIDTH} characters. */
  private static void comment(StringBuilder b, String text) {
    StringBuilder line = new StringBuilder("#");
    for (String word : text.split(" ")) {
      if (line.length() + 1 + word.length() > WIDTH && line.length() > 2) {
        b.append(line).append('\n');
        line = new StringBuilder("#  ");
      }
      line.append(' ').append(word);
    }
    b.append(line).append('\n');
  }

  /**
   * Checks each suggested site as the agent would take it: the file parses with no problem, and the
   * method each {@code in} names exists and makes the call the site names. Says one line per site
   * on {@code err}; returns 0 when every site passes, 1 otherwise.
   */
  static int check(Suggestion s, ClassFiles files, PrintStream err) {
    SitesFile parsed = SitesFile.parse(propertiesOf(render(s, List.of(), List.of())), "suggest");
    int failed = 0;
    for (String w : parsed.warnings()) {
      if (!w.contains("declares no site")) {
        err.println("flodl-budget suggest --check: " + w.replace("flodl-budget: ", ""));
        failed++;
      }
    }
    Set<String> taken = new HashSet<>();
    for (SiteSpec spec : parsed.sites()) {
      taken.add(spec.name());
    }
    for (Candidate c : s.sites()) {
      String problem =
          !taken.contains(c.name())
              ? "the agent refuses its block (above)"
              : callIn(files.kept().get(c.className()), c);
      if (problem == null) {
        err.println(
            "flodl-budget suggest --check: site '"
                + c.name()
                + "' would be woven: "
                + c.in()
                + " calls "
                + c.method());
      } else {
        err.println(
            "flodl-budget suggest --check: site '" + c.name() + "' would not be woven: " + problem);
        failed++;
      }
    }
    return failed == 0 ? 0 : 1;
  }

  /** Returns null when {@code c}'s {@code in} method makes its call, else why not. */
  private static String callIn(byte[] classFile, Candidate c) {
    if (classFile == null) {
      return "class " + SiteFinder.javaName(c.className()) + " was not read";
    }
    ClassNode cls = new ClassNode();
    new ClassReader(classFile).accept(cls, ClassReader.SKIP_FRAMES);
    for (MethodNode m : cls.methods) {
      if (m.name.equals(c.inName()) && m.desc.equals(c.inDescriptor())) {
        for (AbstractInsnNode insn : m.instructions) {
          if (insn instanceof MethodInsnNode call && SiteFinder.ref(call).equals(c.method())) {
            return null;
          }
        }
        return c.in() + " makes no call to " + c.method();
      }
    }
    return "no method " + c.in();
  }

  private static java.util.Properties propertiesOf(String text) {
    java.util.Properties p = new java.util.Properties();
    try {
      p.load(new java.io.StringReader(text));
    } catch (java.io.IOException e) {
      throw new IllegalStateException(e); // a string cannot fail to read
    }
    return p;
  }
}
