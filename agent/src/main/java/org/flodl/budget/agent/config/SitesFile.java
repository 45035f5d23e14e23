package org.flodl.budget.agent.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.policy.Sizes;

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
  static final String DEPTH = "depth";
  static final String EXECUTOR = "executor";
  static final String BATCH = "batch";
  static final String BATCH_BYTES = "batch_bytes";
  static final String ACTIVATION_RESERVE = "activation_reserve";
  static final String DEVICE = "device";
  static final String ROLE = "role";
  static final String ADAPTER = "adapter";

  private static final List<String> FIELDS = List.of(KIND, NAME, METHOD, IN, VALUE, RELEASE,
      DECLINE, DECLINE_ARGS, DEPTH, EXECUTOR, BATCH, BATCH_BYTES, ACTIVATION_RESERVE, DEVICE, ROLE, ADAPTER);
  private static final Set<String> CACHE_ONLY = Set.of(VALUE, RELEASE, DECLINE, DECLINE_ARGS);
  private static final Set<String> PREFETCH_ONLY =
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
   * @throws ConfigException with key {@code sites} when the file is not a readable regular file
   *     of text of at most {@value #MAX_BYTES} bytes
   */
  public static SitesFile load(Path path) throws ConfigException {
    return parse(text(path, MAX_BYTES), Text.clip(String.valueOf(path), 120));
  }

  /**
   * Returns the text of {@code path}, read only if it is a regular file of at most {@code max}
   * bytes: a FIFO, a device ({@code /dev/zero}) or a directory is refused before it is opened,
   * so nothing blocks and nothing is read without end.
   */
  static String text(Path path, int max) throws ConfigException {
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw unreadable(path, "no such file", e);
    } catch (AccessDeniedException e) {
      throw unreadable(path, "permission denied", e);
    } catch (IOException | RuntimeException e) {
      throw unreadable(path, String.valueOf(e.getMessage()), e);
    }
    if (attrs.isDirectory()) {
      throw unreadable(path, "it is a directory", null);
    }
    if (!attrs.isRegularFile()) {
      throw unreadable(path, "not a regular file (a pipe, a device or a socket)", null);
    }
    if (attrs.size() > max) {
      throw unreadable(path, "it is " + attrs.size() + " bytes, more than the " + max
          + " a sites file may have", null);
    }
    byte[] bytes;
    try (SeekableByteChannel in = Files.newByteChannel(path, StandardOpenOption.READ,
        LinkOption.NOFOLLOW_LINKS)) {
      bytes = readAtMost(in, max);
    } catch (IOException | RuntimeException e) {
      // NOFOLLOW_LINKS refuses a symbolic link: read it through its target, checked above.
      try (InputStream in = Files.newInputStream(path)) {
        bytes = in.readNBytes(max + 1);
      } catch (AccessDeniedException denied) {
        throw unreadable(path, "permission denied", denied);
      } catch (IOException | RuntimeException again) {
        throw unreadable(path, String.valueOf(again.getMessage()), again);
      }
    }
    if (bytes.length > max) {
      throw unreadable(path, "it is more than the " + max + " bytes a sites file may have", null);
    }
    if (!isText(bytes)) {
      throw unreadable(path, "it is not text (it holds control bytes: a binary file?)", null);
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
  }

  private static byte[] readAtMost(SeekableByteChannel in, int max) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate(max + 1);
    while (buf.hasRemaining() && in.read(buf) >= 0) {
      // read on: a regular file ends
    }
    byte[] out = new byte[buf.position()];
    buf.flip().get(out);
    return out;
  }

  /** Returns whether {@code bytes} read as text: no NUL and no control bytes but tab, LF, CR, FF. */
  static boolean isText(byte[] bytes) {
    for (byte b : bytes) {
      if (b >= 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f') {
        return false;
      }
      if (b == 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static ConfigException unreadable(Path path, String why, Exception cause) {
    String p = Text.clip(String.valueOf(path), 120);
    return new ConfigException(
        Option.SITES.key(),
        "cannot read sites file '" + p + "' (sites=" + p + "): " + why
            + "; expected a readable Java properties file of site.NAME.FIELD entries",
        cause);
  }

  /** Returns the sites of properties {@code text}, whose lines name {@code origin}. */
  static SitesFile parse(String text, String origin) throws ConfigException {
    OrderedProperties props = new OrderedProperties();
    try {
      props.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigException(Option.SITES.key(), "cannot read sites file '" + origin
          + "': not a properties file (" + Text.clip(String.valueOf(e.getMessage()), 80) + ")",
          e);
    }
    return parse(props, origin);
  }

  /**
   * Returns the sites of {@code props}, whose lines name {@code origin} (usually the file's
   * path). Sites keep the file's order when loaded by {@link #load}, else their names' order.
   */
  public static SitesFile parse(Properties props, String origin) {
    List<String> warnings = new ArrayList<>();
    Iterable<String> keys = props instanceof OrderedProperties ordered
        ? ordered.order
        : new TreeSet<>(props.stringPropertyNames());
    if (props instanceof OrderedProperties ordered && !ordered.repeated.isEmpty()) {
      warnings.add(ConfigException.PREFIX + origin + ": " + ordered.repeated.size()
          + " key(s) given more than once, the last value used (first: '"
          + Text.clip(ordered.repeated.iterator().next(), 60) + "')");
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
            warnings.add(ConfigException.PREFIX + origin + ": presets: unknown preset '"
                + Text.clip(name, 40) + "' (known: " + String.join(", ", Presets.NAMES) + ")");
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
      warnings.add(ConfigException.PREFIX + origin + ": ignored " + ignored + " key(s) that are "
          + "not site.NAME.FIELD (first: '" + Text.clip(firstIgnored, 60) + "')");
    }
    List<SiteSpec> sites = new ArrayList<>();
    int disabled = 0;
    for (Map.Entry<String, Map<String, String>> block : blocks.entrySet()) {
      List<String> problems = new ArrayList<>();
      SiteSpec site = site(block.getKey(), block.getValue(), origin, problems);
      if (problems.isEmpty() && site != null) {
        sites.add(site);
      } else if (disabled++ < MAX_BLOCK_LINES) {
        warnings.add(ConfigException.PREFIX + origin + ": site '" + Text.clip(block.getKey(), 60)
            + "' disabled: " + String.join("; ", problems));
      }
    }
    if (disabled > MAX_BLOCK_LINES) {
      warnings.add(ConfigException.PREFIX + origin + ": " + (disabled - MAX_BLOCK_LINES)
          + " more site(s) disabled");
    }
    if (blocks.isEmpty() && presets.isEmpty()) {
      warnings.add(ConfigException.PREFIX + origin
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

  /** Returns the site of one block, or null, adding each problem found to {@code problems}. */
  private static SiteSpec site(String block, Map<String, String> fields, String origin,
      List<String> problems) {
    String kindOf = String.valueOf(fields.get(KIND)).trim().toLowerCase(Locale.ROOT);
    List<String> ofKind = new ArrayList<>(FIELDS);
    if (kindOf.equals("cache-admit")) {
      ofKind.removeAll(PREFETCH_ONLY);
    } else if (kindOf.equals("prefetch-depth")) {
      ofKind.removeAll(CACHE_ONLY);
    }
    for (String field : fields.keySet()) {
      if (!FIELDS.contains(field)) {
        problems.add("unknown field '" + Text.clip(field, 40) + "' (known: "
            + String.join(", ", ofKind) + ")");
      }
    }
    String kindText = fields.get(KIND);
    boolean cache;
    if (kindText == null || kindText.isEmpty()) {
      problems.add("kind is missing: expected cache-admit or prefetch-depth");
      return null;
    } else if (kindText.equalsIgnoreCase("cache-admit")) {
      cache = true;
    } else if (kindText.equalsIgnoreCase("prefetch-depth")) {
      cache = false;
    } else {
      problems.add("kind '" + Text.clip(kindText, 40)
          + "': expected cache-admit or prefetch-depth");
      return null;
    }
    String name = fields.getOrDefault(NAME, block);
    if (!Text.isSiteName(name)) {
      problems.add("name '" + Text.clip(name, 40) + "': expected letters, digits and . _ : -"
          + " (at most 64)");
    }
    MethodRef method = methodRef(fields, METHOD, true, problems);
    Scope in = null;
    String inText = fields.get(IN);
    if (inText != null) {
      try {
        in = Scope.parse(inText);
      } catch (IllegalArgumentException e) {
        problems.add("in '" + Text.clip(inText, 80) + "': " + e.getMessage());
      }
    }
    Set<String> notHere = cache ? PREFETCH_ONLY : CACHE_ONLY;
    for (String field : FIELDS) {
      if (fields.containsKey(field) && notHere.contains(field)) {
        problems.add(field + " applies to " + (cache ? "prefetch-depth" : "cache-admit")
            + " sites only: expected no " + field + " on a "
            + (cache ? "cache-admit" : "prefetch-depth") + " site");
      }
    }
    boolean stager = false;
    String role = fields.get(ROLE);
    if (role != null) {
      if (role.equalsIgnoreCase(SiteSpec.STAGER)) {
        stager = true;
      } else {
        problems.add("role '" + Text.clip(role, 40) + "': expected stager (or no role)");
      }
    }
    if (method != null) {
      woven(METHOD, method, in, problems);
    }
    if (in != null) {
      String inClass = in.kind() == Scope.Kind.METHOD || in.kind() == Scope.Kind.CLASS
          ? in.name() : in.name() + ".X";
      if (JdkTypes.isAgent(inClass)) {
        problems.add("in '" + in + "' names the agent's own classes, which are never woven");
      } else if (JdkTypes.isJdk(inClass)) {
        problems.add("in '" + in + "' names JDK code, which is never woven: name the "
            + "application code that calls " + (method == null ? "the method" : method));
      }
    }
    if (cache) {
      return cacheAdmit(block, name, fields, method, in, stager, origin, problems);
    }
    return prefetchDepth(block, name, fields, method, in, stager, origin, problems);
  }

  private static SiteSpec cacheAdmit(String block, String name, Map<String, String> fields,
      MethodRef method, Scope in, boolean stager, String origin, List<String> problems) {
    if (method != null && method.isConstructor()) {
      problems.add("method '" + fields.get(METHOD) + "' is a constructor: expected a method, "
          + "since a declined cache-admit skips the call and a constructor cannot be skipped");
    }
    int value = index(fields, VALUE, true, method, problems);
    MethodRef release = methodRef(fields, RELEASE, false, problems);
    if (release != null) {
      woven(RELEASE, release, in, problems);
      if (method != null && sameMethod(release, method)) {
        problems.add("release '" + release + "' is the site's own method: every admission "
            + "would be released as it is made; name the method that evicts");
      }
    }
    MethodRef decline = methodRef(fields, DECLINE, false, problems);
    if (decline != null && decline.isConstructor()) {
      problems.add("decline '" + decline + "' is a constructor: expected the method that "
          + "evicts a key, e.g. com.github.benmanes.caffeine.cache.Cache#invalidate(java.lang.Object)");
    }
    List<Integer> declineArgs = null;
    String argsText = fields.get(DECLINE_ARGS);
    if (argsText != null) {
      if (decline == null) {
        problems.add("decline_args without decline: expected decline = Type#method(types)");
      }
      declineArgs = indices(argsText, method, problems);
    }
    if (problems.isEmpty() && method != null && decline != null && declineArgs == null
        && method.parameterTypes() != null && method.parameterTypes().isEmpty()) {
      problems.add("decline needs an argument (decline_args, default 0, the key), and "
          + method + " takes none");
    }
    String adapter = adapter(fields, "cache-admit", problems);
    if (!problems.isEmpty() || method == null) {
      return null;
    }
    return new CacheAdmitSite(block, name, method, in, value, release, decline, declineArgs,
        adapter, stager, origin);
  }

  /**
   * Returns the block's adapter in lower case, or null; one that no library serves on a site of
   * {@code kind} is a problem.
   */
  private static String adapter(Map<String, String> fields, String kind, List<String> problems) {
    String adapter = fields.get(ADAPTER);
    if (adapter == null) {
      return null;
    }
    adapter = adapter.toLowerCase(Locale.ROOT);
    List<String> known = new ArrayList<>();
    for (Library l : Library.all()) {
      if (kind.equals(l.adapterKind())) {
        known.add(l.name());
      }
    }
    if (!known.contains(adapter)) {
      problems.add("adapter '" + Text.clip(adapter, 40) + "': expected "
          + (known.isEmpty() ? "none" : String.join(" or ", known)) + " on a " + kind
          + " site (or no adapter)");
      return null;
    }
    return adapter;
  }

  private static SiteSpec prefetchDepth(String block, String name, Map<String, String> fields,
      MethodRef method, Scope in, boolean stager, String origin, List<String> problems) {
    int depth = index(fields, DEPTH, true, method, problems);
    if (depth == SiteSpec.RETURN && method != null && method.isConstructor()) {
      problems.add("depth 'return' on a constructor, which returns nothing: "
          + "expected a 0-based argument index");
    }
    int executor = PrefetchDepthSite.NO_EXECUTOR;
    if (fields.containsKey(EXECUTOR)) {
      executor = index(fields, EXECUTOR, false, method, problems);
      if (in != null) {
        problems.add("executor applies to method sites only (no in = ...)");
      }
      if (executor == depth && executor >= 0) {
        problems.add("executor " + executor + " is the depth argument too");
      }
    }
    MethodRef batch = methodRef(fields, BATCH, false, problems);
    if (batch != null) {
      woven(BATCH, batch, in, problems);
    }
    long batchBytes = 0;
    String bytes = fields.get(BATCH_BYTES);
    if (bytes != null) {
      try {
        batchBytes = Sizes.parse(bytes);
        if (batchBytes <= 0) {
          problems.add("batch_bytes '" + bytes + "': expected a size above 0, e.g. 16384 or 16K");
        }
      } catch (IllegalArgumentException e) {
        problems.add("batch_bytes '" + Text.clip(bytes, 40)
            + "': expected a size, e.g. 16384 or 16K");
      }
    }
    long activationReserve = 0;
    String reserve = fields.get(ACTIVATION_RESERVE);
    if (reserve != null) {
      try {
        activationReserve = Sizes.parse(reserve);
      } catch (IllegalArgumentException e) {
        problems.add("activation_reserve '" + Text.clip(reserve, 40)
            + "': expected a size, e.g. 512M");
      }
    }
    String device = "cpu";
    String deviceText = fields.get(DEVICE);
    if (deviceText != null) {
      device = device(deviceText);
      if (device == null) {
        problems.add("device '" + Text.clip(deviceText, 40)
            + "': expected cpu or cuda:N, e.g. cuda:0");
      }
    }
    String adapter = adapter(fields, "prefetch-depth", problems);
    if (adapter != null && in != null) {
      problems.add("adapter applies to method sites only (no in = ...)");
    }
    if (!problems.isEmpty() || method == null) {
      return null;
    }
    if (activationReserve > 0 && !device.startsWith("cuda")) {
      problems.add("activation_reserve applies to cuda devices only (device is " + device + ")");
      return null;
    }
    return new PrefetchDepthSite(block, name, method, in, depth, batch, batchBytes,
        activationReserve, device, executor, adapter, stager, origin);
  }

  /**
   * Adds a problem when {@code ref} would weave what is never woven: a JDK type's bodies (reached
   * only as calls, with {@code in}), the agent's own classes.
   */
  private static void woven(String field, MethodRef ref, Scope in, List<String> problems) {
    String type = ref.className();
    if (JdkTypes.isAgent(type)) {
      problems.add(field + " '" + ref + "' is in the agent itself, whose classes are never woven");
      return;
    }
    boolean called = field.equals(METHOD) ? in != null : in != null;
    if (JdkTypes.isJdk(type) && !called) {
      problems.add(field + " '" + ref + "' is a JDK method, whose bodies are never woven: "
          + "budget its calls with in = the code that makes them");
    }
  }

  /** Returns whether two references name the same method (same type, name and parameters). */
  static boolean sameMethod(MethodRef a, MethodRef b) {
    return a.className().equals(b.className()) && a.methodName().equals(b.methodName())
        && (a.parameterTypes() == null || b.parameterTypes() == null
            || a.parameterTypes().equals(b.parameterTypes()));
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
      problems.add(field + " '" + Text.clip(text, 80) + "': " + e.getMessage());
      return null;
    }
  }

  /** Returns the comma-separated argument indices of {@code text}, checked against the method. */
  private static List<Integer> indices(String text, MethodRef method, List<String> problems) {
    List<Integer> out = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String p = part.trim();
      int i;
      try {
        i = Integer.parseInt(p);
      } catch (NumberFormatException e) {
        i = -1;
      }
      int n = method == null || method.parameterTypes() == null
          ? Integer.MAX_VALUE : method.parameterTypes().size();
      if (i < 0 || i >= n) {
        problems.add("decline_args '" + Text.clip(text, 40) + "': expected comma-separated "
            + "0-based argument indices of the site's method" + (n == Integer.MAX_VALUE ? ""
                : " (0 to " + (n - 1) + ")"));
        return null;
      }
      out.add(i);
    }
    return out;
  }

  /** Returns the argument index of {@code field} ({@code return} when allowed), or -2. */
  private static int index(Map<String, String> fields, String field, boolean allowReturn,
      MethodRef method, List<String> problems) {
    String expected = allowReturn
        ? "expected a 0-based argument index or return"
        : "expected a 0-based argument index";
    String text = fields.get(field);
    if (text == null || text.isEmpty()) {
      problems.add(field + " is missing: " + expected);
      return -2;
    }
    if (allowReturn && text.equalsIgnoreCase("return")) {
      return SiteSpec.RETURN;
    }
    int index;
    try {
      index = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      index = -1;
    }
    if (index < 0) {
      problems.add(field + " '" + Text.clip(text, 40) + "': " + expected);
      return -2;
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
      return -2;
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
      if (Text.isDigits(n, 1, 4)) {
        return "cuda:" + Integer.parseInt(n);
      }
    }
    return null;
  }

  /**
   * Returns {@code sites} without the blocks that budget a method an earlier block already
   * budgets (two sites on one method would each book its values), adding one line per refused
   * block to {@code warnings}. Blocks that share a {@code name} must share a kind.
   */
  public static List<SiteSpec> withoutConflicts(List<SiteSpec> sites, List<String> warnings) {
    List<SiteSpec> kept = new ArrayList<>();
    Map<String, String> kinds = new LinkedHashMap<>();
    for (SiteSpec s : sites) {
      String conflict = null;
      for (SiteSpec k : kept) {
        if (sameMethod(s.method(), k.method()) && String.valueOf(s.in())
            .equals(String.valueOf(k.in()))) {
          conflict = "it budgets " + s.method() + (s.in() == null ? "" : " in " + s.in())
              + " as site '" + k.block() + "' (" + k.origin() + ") already does; one site per"
              + " method, or each value would be booked twice";
          break;
        }
        if (s instanceof CacheAdmitSite c && c.release() != null && k instanceof CacheAdmitSite o
            && sameMethod(c.release(), o.method())) {
          conflict = "its release " + c.release() + " is the method site '" + k.block()
              + "' admits at";
          break;
        }
      }
      String kind = kinds.putIfAbsent(s.name(), s.kind());
      if (conflict == null && kind != null && !kind.equals(s.kind())) {
        conflict = "name '" + s.name() + "' is a " + kind + " site already";
      }
      if (conflict != null) {
        warnings.add(ConfigException.PREFIX + s.origin() + ": site '" + s.block()
            + "' disabled: " + conflict);
      } else {
        kept.add(s);
      }
    }
    return kept;
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
