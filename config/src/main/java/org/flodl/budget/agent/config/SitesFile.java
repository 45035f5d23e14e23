package org.flodl.budget.agent.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The sites file: Java properties, one {@code site.BLOCK.FIELD} block per site, inline {@code #
 * comments} after values allowed. Only a regular file of at most {@value #MAX_BYTES} bytes of text
 * is read; anything else is a {@link ConfigException}. A bad block disables itself only, with one
 * line naming the block, the field and what was expected, and every other block keeps working.
 * Presets ({@link Presets}) are files of this same format.
 */
public final class SitesFile {
  /** The largest sites file read: a sites file is a few blocks, not megabytes. */
  public static final int MAX_BYTES = 1 << 20;

  /** At most this many lines about disabled blocks; the rest are counted in one more line. */
  static final int MAX_BLOCK_LINES = 10;

  static final String KIND = "kind";
  static final String NAME = "name";
  static final String METHOD = "method";
  static final String IN = "in";
  static final String VALUE = "value";
  static final String RELEASE = "release";
  static final String DECLINE = "decline";
  static final String DECLINE_ARGS = "decline_args";
  static final String ANSWER = "answer";
  static final String REFUSES_NULLS = "refuses_nulls";
  static final String KEY = "key";
  static final String DEPTH = "depth";
  static final String EXECUTOR = "executor";
  static final String BATCH = "batch";
  static final String BATCH_BYTES = "batch_bytes";
  static final String ACTIVATION_RESERVE = "activation_reserve";
  static final String DEVICE = "device";
  static final String ROLE = "role";
  static final String ADAPTER = "adapter";
  static final String VIEWS = "views";

  static final List<String> FIELDS =
      List.of(
          KIND,
          NAME,
          METHOD,
          IN,
          VALUE,
          RELEASE,
          DECLINE,
          DECLINE_ARGS,
          ANSWER,
          REFUSES_NULLS,
          KEY,
          DEPTH,
          EXECUTOR,
          BATCH,
          BATCH_BYTES,
          ACTIVATION_RESERVE,
          DEVICE,
          ROLE,
          ADAPTER,
          VIEWS);
  static final Set<String> CACHE_ONLY =
      Set.of(VALUE, RELEASE, DECLINE, DECLINE_ARGS, ANSWER, REFUSES_NULLS, KEY, VIEWS);
  static final Set<String> PREFETCH_ONLY =
      Set.of(DEPTH, EXECUTOR, BATCH, BATCH_BYTES, ACTIVATION_RESERVE, DEVICE);

  /** The one key outside the site blocks: the presets the file asks for. */
  static final String PRESETS_KEY = "presets";

  private final List<SiteSpec> sites;
  private final List<String> warnings;
  private final List<String> presets;

  private SitesFile(List<SiteSpec> sites, List<String> warnings, List<String> presets) {
    this.sites = List.copyOf(sites);
    this.warnings = List.copyOf(warnings);
    this.presets = List.copyOf(presets);
  }

  /**
   * Returns the sites of the file at {@code path} (UTF-8, or ISO-8859-1 when it is not UTF-8).
   *
   * @throws ConfigException with key {@code sites} when the file is not a readable regular file of
   *     text of at most {@value #MAX_BYTES} bytes
   */
  public static SitesFile load(Path path) throws ConfigException {
    return parse(SitesFileText.read(path, MAX_BYTES), Text.clip(String.valueOf(path), 120));
  }

  /** Returns the sites of properties {@code text}, whose lines name {@code origin}. */
  static SitesFile parse(String text, String origin) throws ConfigException {
    OrderedProperties props = new OrderedProperties();
    try {
      props.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigException(
          Option.SITES.key(),
          "cannot read sites file '"
              + origin
              + "': not a properties file ("
              + Text.clip(String.valueOf(e.getMessage()), 80)
              + ")",
          e);
    }
    return parse(props, origin);
  }

  /**
   * Returns the sites of {@code props}, whose lines name {@code origin} (usually the file's path).
   * Sites keep the file's order when loaded by {@link #load}, else their names' order.
   */
  public static SitesFile parse(Properties props, String origin) {
    List<String> warnings = new ArrayList<>();
    Iterable<String> keys =
        props instanceof OrderedProperties ordered
            ? ordered.order
            : new TreeSet<>(props.stringPropertyNames());
    if (props instanceof OrderedProperties ordered && !ordered.repeated.isEmpty()) {
      warnings.add(
          ConfigException.PREFIX
              + origin
              + ": "
              + ordered.repeated.size()
              + " key(s) given more than once, the last value used (first: '"
              + Text.clip(ordered.repeated.iterator().next(), 60)
              + "')");
    }
    Map<String, Map<String, String>> blocks = new LinkedHashMap<>();
    List<String> presets = new ArrayList<>();
    int ignored = 0;
    String firstIgnored = null;
    for (String key : keys) {
      String value = props.getProperty(key);
      if (value == null) {
        continue;
      }
      if (key.equals(PRESETS_KEY)) {
        for (String p : Text.words(stripComment(value))) {
          String name = p.trim().toLowerCase(Locale.ROOT);
          if (name.isEmpty()) {
            continue;
          }
          if (Presets.exists(name)) {
            if (!presets.contains(name)) {
              presets.add(name);
            }
          } else {
            warnings.add(
                ConfigException.PREFIX
                    + origin
                    + ": presets: unknown preset '"
                    + Text.clip(name, 40)
                    + "' (known: "
                    + String.join(", ", Presets.NAMES)
                    + ")");
          }
        }
        continue;
      }
      int last = key.lastIndexOf('.');
      if (!key.startsWith("site.") || last <= "site.".length()) {
        if (ignored++ == 0) {
          firstIgnored = key;
        }
        continue;
      }
      String name = key.substring("site.".length(), last);
      String field = key.substring(last + 1);
      Map<String, String> block = blocks.get(name); // no lambda: premain reads this (start-up)
      if (block == null) {
        block = new LinkedHashMap<>();
        blocks.put(name, block);
      }
      block.put(field, stripComment(value));
    }
    if (ignored > 0) {
      warnings.add(
          ConfigException.PREFIX
              + origin
              + ": ignored "
              + ignored
              + " key(s) that are "
              + "not site.NAME.FIELD (first: '"
              + Text.clip(firstIgnored, 60)
              + "')");
    }
    List<SiteSpec> sites = new ArrayList<>();
    int disabled = 0;
    for (Map.Entry<String, Map<String, String>> block : blocks.entrySet()) {
      List<String> problems = new ArrayList<>();
      SiteSpec site = SiteBlock.site(block.getKey(), block.getValue(), origin, problems);
      if (problems.isEmpty() && site != null) {
        sites.add(site);
      } else if (disabled++ < MAX_BLOCK_LINES) {
        warnings.add(
            ConfigException.PREFIX
                + origin
                + ": site '"
                + Text.clip(block.getKey(), 60)
                + "' disabled: "
                + String.join("; ", problems));
      }
    }
    if (disabled > MAX_BLOCK_LINES) {
      warnings.add(
          ConfigException.PREFIX
              + origin
              + ": "
              + (disabled - MAX_BLOCK_LINES)
              + " more site(s) disabled");
    }
    if (blocks.isEmpty() && presets.isEmpty()) {
      warnings.add(
          ConfigException.PREFIX
              + origin
              + ": declares no site (expected site.NAME.FIELD keys, or presets = NAME,...)");
    }
    return new SitesFile(sites, warnings, presets);
  }

  /** Returns whether {@code key} is a field of a site block. */
  static boolean isField(String key) {
    return FIELDS.contains(key);
  }

  /** Returns {@code value} without an inline comment: from the first {@code #} after a blank. */
  static String stripComment(String value) {
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) == '#' && (i == 0 || Character.isWhitespace(value.charAt(i - 1)))) {
        return value.substring(0, i).trim();
      }
    }
    return value.trim();
  }

  /**
   * Returns {@code sites} without the blocks that budget a method an earlier block already budgets
   * (two sites on one method would each book its values), adding one line per refused block to
   * {@code warnings}. Blocks that share a {@code name} must share a kind.
   */
  public static List<SiteSpec> withoutConflicts(List<SiteSpec> sites, List<String> warnings) {
    return SiteConflicts.withoutConflicts(sites, warnings);
  }

  /** Returns the presets the file's {@code presets} key names, in order. */
  public List<String> presets() {
    return presets;
  }

  /** Returns the sites that parsed, in order. */
  public List<SiteSpec> sites() {
    return sites;
  }

  /** Returns one line per disabled site or ignored entry, each starting {@code flodl-budget: }. */
  public List<String> warnings() {
    return warnings;
  }

  /** Properties that remember the order keys were read in, and which keys were repeated. */
  private static final class OrderedProperties extends Properties {
    private static final long serialVersionUID = 1L;
    final transient Set<String> order = new LinkedHashSet<>();
    final transient Set<String> repeated = new LinkedHashSet<>();

    @Override
    public synchronized Object put(Object key, Object value) {
      if (key instanceof String k && !order.add(k)) {
        repeated.add(k);
      }
      return super.put(key, value);
    }
  }
}
