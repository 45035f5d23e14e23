package org.flodl.budget.agent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.flodl.budget.share.HostShareRegistry;
import org.junit.jupiter.api.Test;

/**
 * The README and the docs as a user reads them, checked against the files beside them and the agent
 * that reads its configuration: every relative link reaches a file, and its {@code #section} a
 * heading of that file (GitHub's anchors); every agent argument, {@code -Dflodl.budget.KEY}, {@code
 * FLODL_BUDGET_KEY}, preset name, sites-file field and command they name is one the agent accepts
 * (and {@code -Dflodl.budget.registry}, the host-share registry's folder); and the key and field
 * tables of CONFIGURATION.md list exactly the agent's. A name in capitals ({@code KEY}, {@code
 * NAME}, {@code FIELD}) is a placeholder and stands for any.
 */
class DocsTest {
  private static final Path ROOT = Path.of("..");

  private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
  private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
  private static final Pattern AGENT_ARGS =
      Pattern.compile("-javaagent:[^\\s=`\"']*flodl-budget-agent\\.jar=([^\\s`\"']+)");
  private static final Pattern ARGUMENT = Pattern.compile("^([a-z][a-z0-9_]*)=(\\S*)$");
  private static final Pattern SYSTEM_PROPERTY = Pattern.compile("-Dflodl\\.budget\\.(\\w+)");
  private static final Pattern ENVIRONMENT = Pattern.compile("\\bFLODL_BUDGET_(\\w+)");
  private static final Pattern PRESETS_ARGUMENT = Pattern.compile("\\bpresets=([\\w:\\[\\]-]+)");
  private static final Pattern PRESETS_LINE =
      Pattern.compile("(?m)^\\s*presets\\s*=\\s*([\\w:, -]+?)\\s*(#.*)?$");
  private static final Pattern COMMAND =
      Pattern.compile(
          "-jar\\s+\\S*flodl-budget-agent\\.jar\\s+([a-z][a-z-]*)(?:\\s+(\\[?\\w+]?))?");
  private static final Pattern SITE_FIELD =
      Pattern.compile("\\bsite\\.([\\w.:-]+)\\.([A-Za-z_]+)\\b(?:\\s*=\\s*(\\S+))?");
  private static final Set<String> COMMANDS =
      Set.of("attach", "report", "presets", "suggest", "help");
  private static final Set<String> KINDS = Set.of("cache-admit", "prefetch-depth");

  /** A markdown file: its prose (fenced blocks blanked) and its fenced blocks' text. */
  record Doc(Path path, String prose, String code, Set<String> anchors) {
    String name() {
      return ROOT.relativize(path).toString();
    }
  }

  private static final Map<Path, Doc> READ = new HashMap<>();

  /** Returns the repository's markdown files: the README, docs/ and the modules' READMEs. */
  static List<Path> docs() throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(ROOT, 4)) {
      s.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> !skipped(ROOT.relativize(p)))
          .sorted()
          .forEach(out::add);
    }
    return out;
  }

  private static boolean skipped(Path relative) {
    for (Path part : relative) {
      String n = part.toString();
      if (n.equals("target") || n.equals("node_modules") || (n.startsWith(".") && n.length() > 1)) {
        return true;
      }
    }
    return false;
  }

  static Doc read(Path path) {
    return READ.computeIfAbsent(
        path.normalize(),
        p -> {
          List<String> lines;
          try {
            lines = Files.readAllLines(p, StandardCharsets.UTF_8);
          } catch (IOException e) {
            throw new AssertionError(p + ": " + e, e);
          }
          StringBuilder prose = new StringBuilder();
          StringBuilder code = new StringBuilder();
          Set<String> anchors = new LinkedHashSet<>();
          Map<String, Integer> seen = new HashMap<>();
          boolean fenced = false;
          for (String line : lines) {
            if (FENCE.matcher(line).find()) {
              fenced = !fenced;
              prose.append('\n');
              code.append('\n');
              continue;
            }
            (fenced ? code : prose).append(line).append('\n');
            (fenced ? prose : code).append('\n');
            Matcher h = HEADING.matcher(line);
            if (!fenced && h.matches()) {
              String slug = slug(h.group(2));
              int n = seen.merge(slug, 1, Integer::sum);
              anchors.add(n == 1 ? slug : slug + "-" + (n - 1));
            }
          }
          return new Doc(p, prose.toString(), code.toString(), anchors);
        });
  }

  /** GitHub's anchor of a heading: lower case, punctuation dropped, each blank a hyphen. */
  static String slug(String heading) {
    String text = heading.replaceAll("\\[([^\\]]*)]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder();
    text.codePoints()
        .forEach(
            c -> {
              if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                out.appendCodePoint(c);
              } else if (c == ' ') {
                out.append('-');
              }
            });
    return out.toString();
  }

  private static boolean placeholder(String name) {
    return name.equals(name.toUpperCase(Locale.ROOT)) && name.chars().anyMatch(Character::isLetter);
  }

  /** Returns every code span of the prose, whitespace as one blank. */
  private static List<String> spans(Doc d) {
    List<String> out = new ArrayList<>();
    Matcher m = CODE_SPAN.matcher(d.prose());
    while (m.find()) {
      out.add(m.group(1).replaceAll("\\s+", " ").trim());
    }
    return out;
  }

  @Test
  void everyRelativeLinkReachesAFileAndItsSection() throws IOException {
    List<String> broken = new ArrayList<>();
    int links = 0;
    for (Path p : docs()) {
      Doc d = read(p);
      String text = CODE_SPAN.matcher(d.prose()).replaceAll(" ");
      Matcher m = LINK.matcher(text);
      while (m.find()) {
        String target = m.group(1);
        if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
          continue; // https:, mailto:
        }
        links++;
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path to = file.isEmpty() ? p : p.getParent().resolve(file).normalize();
        if (!Files.exists(to)) {
          broken.add(d.name() + ": " + target + " (no such file)");
        } else if (anchor != null) {
          if (!to.toString().endsWith(".md")) {
            broken.add(d.name() + ": " + target + " (a section of a file that is not markdown)");
          } else if (!read(to).anchors().contains(anchor)) {
            broken.add(d.name() + ": " + target + " (no such section in " + read(to).name() + ")");
          }
        }
      }
    }
    assertTrue(links > 50, "the links were read: " + links);
    assertEquals(List.of(), broken, "links to a file or section that does not exist");
  }

  @Test
  void everyKeyPresetFieldAndCommandNamedIsOneTheAgentAccepts() throws IOException {
    Set<String> presets = new TreeSet<>(Presets.NAMES);
    Set<String> wrong = new TreeSet<>();
    int named = 0;
    for (Path p : docs()) {
      Doc d = read(p);
      // The guide that adds a library names the example library its tests add.
      Set<String> known = new TreeSet<>(presets);
      if (d.name().equals("docs/LIBRARIES.md")) {
        known.addAll(exampleLibraries());
      }
      // The README and docs/ speak of the agent's arguments alone; the test apps' and modules'
      // READMEs of their own programs' options too.
      boolean agentsOwn = d.name().equals("README.md") || d.name().startsWith("docs/");
      List<String> texts = new ArrayList<>(spans(d));
      texts.add(d.code());
      for (String code : texts) {
        Matcher m = AGENT_ARGS.matcher(code);
        while (m.find()) {
          for (String entry : m.group(1).split(",")) {
            Matcher a = ARGUMENT.matcher(entry);
            if (a.matches()) {
              named++;
              option(d, a.group(1), wrong);
            }
          }
        }
        Matcher a = ARGUMENT.matcher(code); // a span that is one argument: `mode=observe`
        if (agentsOwn && a.matches()) {
          named++;
          option(d, a.group(1), wrong);
        }
        m = SYSTEM_PROPERTY.matcher(code);
        while (m.find()) {
          named++;
          if (!(AgentConfig.PROPERTY_PREFIX + m.group(1)).equals(HostShareRegistry.ROOT_PROPERTY)) {
            option(d, m.group(1), wrong);
          }
        }
        m = ENVIRONMENT.matcher(code);
        while (m.find()) {
          named++;
          if (!m.group(1)
              .equals("KEY")) { // upper case, as every variable: KEY alone stands for any
            option(d, m.group(1).toLowerCase(Locale.ROOT), wrong);
          }
        }
        m = PRESETS_ARGUMENT.matcher(code);
        while (m.find()) {
          for (String name : m.group(1).split(":")) {
            named++;
            preset(d, name, known, wrong);
          }
        }
        m = PRESETS_LINE.matcher(code);
        while (m.find()) {
          for (String name : m.group(1).split("[,:\\s]+")) {
            named++;
            preset(d, name, known, wrong);
          }
        }
        m = COMMAND.matcher(code);
        while (m.find()) {
          named++;
          if (!COMMANDS.contains(m.group(1))) {
            wrong.add(d.name() + ": command '" + m.group(1) + "'");
          } else if (m.group(1).equals("presets") && m.group(2) != null) {
            preset(d, m.group(2).replaceAll("[\\[\\]]", ""), known, wrong);
          }
        }
        m = SITE_FIELD.matcher(code);
        while (m.find()) {
          named++;
          String field = m.group(2);
          if (!placeholder(field) && !SitesFile.isField(field)) {
            wrong.add(d.name() + ": sites-file field '" + field + "' (site." + m.group(1) + ")");
          } else if (field.equals("kind") && m.group(3) != null && !KINDS.contains(m.group(3))) {
            wrong.add(d.name() + ": kind '" + m.group(3) + "'");
          }
        }
      }
    }
    assertTrue(named > 100, "the names were read: " + named);
    assertEquals(Set.of(), wrong, "names the agent does not accept");
  }

  private static void option(Doc d, String key, Set<String> wrong) {
    if (!placeholder(key) && Option.forKey(key) == null) {
      wrong.add(d.name() + ": key '" + key + "'");
    }
  }

  private static void preset(Doc d, String name, Set<String> known, Set<String> wrong) {
    if (!name.isEmpty() && !placeholder(name) && !known.contains(name)) {
      wrong.add(d.name() + ": preset '" + name + "' (known: " + known + ")");
    }
  }

  /** Returns the names of the example libraries the agent's tests add (LIBRARIES.md's guide). */
  private static Set<String> exampleLibraries() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("src/test/libraries"))) {
      return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
    }
  }

  @Test
  void theKeyAndFieldTablesListWhatTheAgentAccepts() {
    Doc configuration = read(ROOT.resolve("docs/CONFIGURATION.md"));
    Set<String> keys = new TreeSet<>();
    for (Option o : Option.values()) {
      keys.add(o.key());
    }
    assertEquals(keys, firstColumn(configuration, "## Keys"), "the Keys table");
    assertEquals(
        new TreeSet<>(SitesFile.FIELDS),
        firstColumn(configuration, "### Fields"),
        "the Fields table");
  }

  /** Returns the first cells (code spans) of the table under {@code heading}. */
  private static Set<String> firstColumn(Doc d, String heading) {
    String prose = d.prose();
    int at = prose.indexOf("\n" + heading + "\n");
    assertTrue(at >= 0, heading + " in " + d.name());
    Set<String> out = new TreeSet<>();
    boolean inTable = false;
    for (String line : prose.substring(at + heading.length() + 2).split("\n")) {
      if (line.startsWith("|")) {
        inTable = true;
        Matcher m = Pattern.compile("^\\|\\s*`([^`]+)`\\s*\\|").matcher(line);
        if (m.find()) {
          out.add(m.group(1));
        }
      } else if (inTable) {
        break;
      }
    }
    return out;
  }

  @Test
  void anchorsAreGitHubs() {
    assertEquals("what-does-a-cached-put-cost", slug("What does a cached put cost?"));
    assertEquals("call-sites-in--", slug("Call sites: `in = ...`"));
    assertEquals(
        "arrow-and-netty-what-a-decline-does-to-a-reference-counted-value",
        slug("Arrow and Netty: what a decline does to a reference-counted value"));
    assertEquals("keys", slug("Keys"));
  }
}
