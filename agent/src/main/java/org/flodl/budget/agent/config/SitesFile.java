package org.flodl.budget.agent.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
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
import org.flodl.budget.policy.Sizes;

/**
 * The sites file: Java properties, one {@code site.NAME.FIELD} block per call site, inline {@code
 * # comments} after values allowed. A file that cannot be read is a {@link ConfigException}; a bad
 * entry disables its own site only, with one warning line naming the site, the field and what was
 * expected, and every other site keeps working.
 */
public final class SitesFile {
  static final String KIND = "kind";
  static final String METHOD = "method";
  static final String VALUE = "value";
  static final String RELEASE = "release";
  static final String DEPTH = "depth";
  static final String BATCH = "batch";
  static final String BATCH_BYTES = "batch_bytes";
  static final String DEVICE = "device";
  static final String ROLE = "role";

  private static final List<String> FIELDS =
      List.of(KIND, METHOD, VALUE, RELEASE, DEPTH, BATCH, BATCH_BYTES, DEVICE, ROLE);
  private static final Set<String> CACHE_ONLY = Set.of(VALUE, RELEASE);
  private static final Set<String> PREFETCH_ONLY = Set.of(DEPTH, BATCH, BATCH_BYTES, DEVICE);

  private final List<SiteSpec> sites;
  private final List<String> warnings;

  private SitesFile(List<SiteSpec> sites, List<String> warnings) {
    this.sites = List.copyOf(sites);
    this.warnings = List.copyOf(warnings);
  }

  /**
   * Returns the sites of the file at {@code path} (UTF-8, or ISO-8859-1 when it is not UTF-8).
   *
   * @throws ConfigException with key {@code sites} when the file cannot be read
   */
  public static SitesFile load(Path path) throws ConfigException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      throw unreadable(path, "no such file", e);
    } catch (AccessDeniedException e) {
      throw unreadable(path, "permission denied", e);
    } catch (IOException | RuntimeException e) {
      String why = Files.isDirectory(path) ? "it is a directory" : String.valueOf(e.getMessage());
      throw unreadable(path, why, e);
    }
    String text;
    try {
      text = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      text = new String(bytes, StandardCharsets.ISO_8859_1);
    }
    OrderedProperties props = new OrderedProperties();
    try {
      props.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw unreadable(path, "not a properties file (" + e.getMessage() + ")", e);
    }
    return parse(props, String.valueOf(path));
  }

  private static ConfigException unreadable(Path path, String why, Exception cause) {
    return new ConfigException(
        AgentConfig.SITES,
        "cannot read sites file '" + path + "' (sites=" + path + "): " + why
            + "; expected a readable Java properties file of site.NAME.FIELD entries",
        cause);
  }

  /**
   * Returns the sites of {@code props}, whose warnings name {@code origin} (usually the file's
   * path). Sites keep the file's order when loaded by {@link #load}, else their names' order.
   */
  public static SitesFile parse(Properties props, String origin) {
    List<String> warnings = new ArrayList<>();
    Iterable<String> keys = props instanceof OrderedProperties ordered
        ? ordered.order
        : new TreeSet<>(props.stringPropertyNames());
    if (props instanceof OrderedProperties ordered) {
      for (String key : ordered.repeated) {
        warnings.add(ConfigException.PREFIX + origin + ": '" + key
            + "' is given more than once; the last value is used");
      }
    }
    Map<String, Map<String, String>> blocks = new LinkedHashMap<>();
    for (String key : keys) {
      String value = props.getProperty(key);
      if (value == null) {
        continue;
      }
      int last = key.lastIndexOf('.');
      if (!key.startsWith("site.") || last <= "site.".length()) {
        warnings.add(ConfigException.PREFIX + origin + ": ignored '" + key
            + "': expected site.NAME.FIELD keys (fields: " + String.join(", ", FIELDS) + ")");
        continue;
      }
      String name = key.substring("site.".length(), last);
      String field = key.substring(last + 1);
      blocks.computeIfAbsent(name, n -> new LinkedHashMap<>()).put(field, stripComment(value));
    }
    List<SiteSpec> sites = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> block : blocks.entrySet()) {
      List<String> problems = new ArrayList<>();
      SiteSpec site = site(block.getKey(), block.getValue(), problems);
      if (problems.isEmpty() && site != null) {
        sites.add(site);
      } else {
        warnings.add(ConfigException.PREFIX + origin + ": site '" + block.getKey()
            + "' disabled: " + String.join("; ", problems));
      }
    }
    if (blocks.isEmpty()) {
      warnings.add(ConfigException.PREFIX + origin
          + ": declares no site (expected site.NAME.FIELD keys)");
    }
    return new SitesFile(sites, warnings);
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

  /** Returns the site of one block, or null, adding each problem found to {@code problems}. */
  private static SiteSpec site(String name, Map<String, String> fields, List<String> problems) {
    for (String field : fields.keySet()) {
      if (!FIELDS.contains(field)) {
        problems.add("unknown field '" + field + "' (known: " + String.join(", ", FIELDS) + ")");
      }
    }
    String kindText = fields.get(KIND);
    SiteSpec.Kind kind = null;
    if (kindText == null || kindText.isEmpty()) {
      problems.add("kind is missing: expected cache-admit or prefetch-depth");
    } else {
      kind = SiteSpec.Kind.fromLabel(kindText);
      if (kind == null) {
        problems.add("kind '" + kindText + "': expected cache-admit or prefetch-depth");
      }
    }
    MethodRef method = methodRef(fields, METHOD, true, problems);
    if (kind == null) {
      return null;
    }
    Set<String> notHere = kind == SiteSpec.Kind.CACHE_ADMIT ? PREFETCH_ONLY : CACHE_ONLY;
    for (String field : FIELDS) {
      if (fields.containsKey(field) && notHere.contains(field)) {
        problems.add(field + " applies to "
            + (kind == SiteSpec.Kind.CACHE_ADMIT ? "prefetch-depth" : "cache-admit")
            + " sites only: expected no " + field + " on a " + kind.label() + " site");
      }
    }
    String role = fields.get(ROLE);
    if (role != null) {
      if (role.equalsIgnoreCase(SiteSpec.STAGER)) {
        role = SiteSpec.STAGER;
      } else {
        problems.add("role '" + role + "': expected stager (or no role)");
      }
    }
    int valueIndex = SiteSpec.UNUSED;
    int depthIndex = SiteSpec.UNUSED;
    MethodRef release = null;
    MethodRef batch = null;
    long batchBytes = 0;
    String device = "cpu";
    if (kind == SiteSpec.Kind.CACHE_ADMIT) {
      if (method != null && method.methodName().equals(SiteSpec.CONSTRUCTOR)) {
        problems.add("method '" + fields.get(METHOD) + "' is a constructor: expected a method, "
            + "since a declined cache-admit skips the call and a constructor cannot be skipped");
      }
      valueIndex = index(fields, VALUE, false, method, problems);
      release = methodRef(fields, RELEASE, false, problems);
    } else {
      depthIndex = index(fields, DEPTH, true, method, problems);
      batch = methodRef(fields, BATCH, false, problems);
      if (batch != null && batch.parameterTypes() != null) {
        problems.add("batch '" + fields.get(BATCH)
            + "': expected Class#method without a parameter list, e.g. com.acme.data.Loader#next");
      }
      String bytes = fields.get(BATCH_BYTES);
      if (bytes != null) {
        try {
          batchBytes = Sizes.parse(bytes);
          if (batchBytes <= 0) {
            problems.add("batch_bytes '" + bytes + "': expected a size above 0, e.g. 16384 or 16K");
          }
        } catch (IllegalArgumentException e) {
          problems.add("batch_bytes '" + bytes + "': expected a size, e.g. 16384 or 16K");
        }
      }
      String deviceText = fields.get(DEVICE);
      if (deviceText != null) {
        device = device(deviceText);
        if (device == null) {
          problems.add("device '" + deviceText + "': expected cpu or cuda:N, e.g. cuda:0");
        }
      }
    }
    if (!problems.isEmpty() || method == null) {
      return null;
    }
    return new SiteSpec(
        name, kind, method.className(), method.methodName(), method.parameterTypes(),
        valueIndex, depthIndex,
        release == null ? null : release.className(),
        release == null ? null : release.methodName(),
        release == null ? null : release.parameterTypes(),
        batch == null ? null : batch.className(),
        batch == null ? null : batch.methodName(),
        batchBytes, device, role);
  }

  private static MethodRef methodRef(
      Map<String, String> fields, String field, boolean required, List<String> problems) {
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      if (required || text != null) {
        problems.add(field + " is missing: " + MethodRef.EXPECTED);
      }
      return null;
    }
    try {
      return MethodRef.parse(text);
    } catch (IllegalArgumentException e) {
      problems.add(field + " '" + text + "': " + e.getMessage());
      return null;
    }
  }

  /** Returns the argument index of {@code field} ({@code return} when allowed), or UNUSED. */
  private static int index(Map<String, String> fields, String field, boolean allowReturn,
      MethodRef method, List<String> problems) {
    String expected = allowReturn
        ? "expected a 0-based argument index or return"
        : "expected a 0-based argument index";
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      problems.add(field + " is missing: " + expected);
      return SiteSpec.UNUSED;
    }
    if (allowReturn && text.equalsIgnoreCase("return")) {
      if (method != null && method.methodName().equals(SiteSpec.CONSTRUCTOR)) {
        problems.add(field + " 'return' on a constructor, which returns nothing: "
            + "expected a 0-based argument index");
        return SiteSpec.UNUSED;
      }
      return SiteSpec.RETURN;
    }
    int index;
    try {
      index = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      index = -1;
    }
    if (index < 0) {
      problems.add(field + " '" + text + "': " + expected);
      return SiteSpec.UNUSED;
    }
    if (method != null && method.parameterTypes() != null
        && index >= method.parameterTypes().size()) {
      int n = method.parameterTypes().size();
      String expectedHere;
      if (n == 0) {
        expectedHere = allowReturn ? "expected return" : "expected a method with arguments";
      } else {
        expectedHere = "expected an index from 0 to " + (n - 1) + (allowReturn ? " or return" : "");
      }
      problems.add(field + " '" + text + "': the method takes " + n + " argument"
          + (n == 1 ? "" : "s") + ": " + expectedHere);
      return SiteSpec.UNUSED;
    }
    return index;
  }

  /** Returns {@code cpu} or {@code cuda:N} canonical, or null when {@code text} is neither. */
  private static String device(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    if (lower.equals("cpu")) {
      return lower;
    }
    if (lower.startsWith("cuda:")) {
      String n = lower.substring("cuda:".length());
      if (n.matches("\\d{1,4}")) {
        return "cuda:" + Integer.parseInt(n);
      }
    }
    return null;
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
