package org.flodl.budget.agent.config;

import static org.flodl.budget.agent.config.BlockFields.device;
import static org.flodl.budget.agent.config.BlockFields.index;
import static org.flodl.budget.agent.config.BlockFields.indices;
import static org.flodl.budget.agent.config.BlockFields.methodRef;
import static org.flodl.budget.agent.config.BlockFields.sameMethod;
import static org.flodl.budget.agent.config.BlockFields.woven;
import static org.flodl.budget.agent.config.SitesFile.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.policy.Sizes;

/**
 * One {@code site.BLOCK.*} block of a sites file read into its site: the fields its kind takes,
 * each checked ({@link BlockFields}), or null with every problem found said, so that a bad block
 * disables itself only.
 */
final class SiteBlock {
  private SiteBlock() {}

  /** Returns the site of one block, or null, adding each problem found to {@code problems}. */
  static SiteSpec site(
      String block, Map<String, String> fields, String origin, List<String> problems) {
    String kindOf = String.valueOf(fields.get(KIND)).trim().toLowerCase(Locale.ROOT);
    List<String> ofKind = new ArrayList<>(FIELDS);
    if (kindOf.equals("cache-admit")) {
      ofKind.removeAll(PREFETCH_ONLY);
    } else if (kindOf.equals("prefetch-depth")) {
      ofKind.removeAll(CACHE_ONLY);
    }
    for (String field : fields.keySet()) {
      if (!FIELDS.contains(field)) {
        problems.add(
            "unknown field '"
                + Text.clip(field, 40)
                + "' (known: "
                + String.join(", ", ofKind)
                + ")");
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
      problems.add(
          "kind '" + Text.clip(kindText, 40) + "': expected cache-admit or prefetch-depth");
      return null;
    }
    String name = fields.getOrDefault(NAME, block);
    if (!Text.isSiteName(name)) {
      problems.add(
          "name '"
              + Text.clip(name, 40)
              + "': expected letters, digits and . _ : -"
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
        problems.add(
            field
                + " applies to "
                + (cache ? "prefetch-depth" : "cache-admit")
                + " sites only: expected no "
                + field
                + " on a "
                + (cache ? "cache-admit" : "prefetch-depth")
                + " site");
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
      String inClass =
          in.kind() == Scope.Kind.METHOD || in.kind() == Scope.Kind.CLASS
              ? in.name()
              : in.name() + ".X";
      if (JdkTypes.isAgent(inClass)) {
        problems.add("in '" + in + "' names the agent's own classes, which are never woven");
      } else if (JdkTypes.isJdk(inClass)) {
        problems.add(
            "in '"
                + in
                + "' names JDK code, which is never woven: name the "
                + "application code that calls "
                + (method == null ? "the method" : method));
      }
    }
    if (cache) {
      return cacheAdmit(block, name, fields, method, in, stager, origin, problems);
    }
    return prefetchDepth(block, name, fields, method, in, stager, origin, problems);
  }

  private static SiteSpec cacheAdmit(
      String block,
      String name,
      Map<String, String> fields,
      MethodRef method,
      Scope in,
      boolean stager,
      String origin,
      List<String> problems) {
    if (method != null && method.isConstructor()) {
      problems.add(
          "method '"
              + fields.get(METHOD)
              + "' is a constructor: expected a method, "
              + "since a declined cache-admit skips the call and a constructor cannot be skipped");
    }
    int value = index(fields, VALUE, true, method, problems);
    MethodRef release = methodRef(fields, RELEASE, false, problems);
    if (release != null) {
      woven(RELEASE, release, in, problems);
      if (method != null && sameMethod(release, method)) {
        problems.add(
            "release '"
                + release
                + "' is the site's own method: every admission "
                + "would be released as it is made; name the method that evicts");
      }
    }
    MethodRef decline = methodRef(fields, DECLINE, false, problems);
    if (decline != null && decline.isConstructor()) {
      problems.add(
          "decline '"
              + decline
              + "' is a constructor: expected the method that "
              + "evicts a key, e.g. com.github.benmanes.caffeine.cache.Cache#invalidate(java.lang.Object)");
    }
    List<Integer> declineArgs = null;
    String argsText = fields.get(DECLINE_ARGS);
    if (argsText != null) {
      if (decline == null) {
        problems.add("decline_args without decline: expected decline = Type#method(types)");
      }
      declineArgs = indices(argsText, method, value == SiteSpec.RETURN, problems);
    }
    if (problems.isEmpty()
        && method != null
        && decline != null
        && declineArgs == null
        && method.parameterTypes() != null
        && method.parameterTypes().isEmpty()) {
      problems.add(
          "decline needs an argument (decline_args, default 0, the key), and "
              + method
              + " takes none");
    }
    DeclineAnswer answer = DeclineAnswer.EVICTED;
    String answerText = fields.get(ANSWER);
    if (answerText != null) {
      answer = DeclineAnswer.parse(answerText);
      if (answer == null) {
        problems.add(
            "answer '" + Text.clip(answerText, 40) + "': expected " + DeclineAnswer.EXPECTED);
      } else if (decline == null && answer != DeclineAnswer.DEFAULT) {
        problems.add("answer " + answerText + " without decline: expected decline = Type#method");
      }
    }
    boolean refusesNulls = false;
    String nullsText = fields.get(REFUSES_NULLS);
    if (nullsText != null) {
      if (nullsText.equalsIgnoreCase("true") || nullsText.equalsIgnoreCase("false")) {
        refusesNulls = nullsText.equalsIgnoreCase("true");
        if (refusesNulls && decline == null) {
          problems.add("refuses_nulls without decline: expected decline = Type#method");
        }
      } else {
        problems.add("refuses_nulls '" + Text.clip(nullsText, 40) + "': expected true or false");
      }
    }
    String adapter = adapter(fields, "cache-admit", problems);
    int key = -1;
    if (fields.containsKey(KEY)) {
      key = index(fields, KEY, false, method, problems);
      if (in != null) {
        problems.add("key applies to method-body sites: expected no key with in = ...");
      }
    }
    boolean keepViews = false;
    String viewsText = fields.get(VIEWS);
    if (viewsText != null) {
      if (viewsText.equalsIgnoreCase("keep") || viewsText.equalsIgnoreCase("copy")) {
        keepViews = viewsText.equalsIgnoreCase("keep");
      } else {
        problems.add("views '" + Text.clip(viewsText, 40) + "': expected copy or keep");
      }
    }
    if (!problems.isEmpty() || method == null) {
      return null;
    }
    return new CacheAdmitSite(
        block,
        name,
        method,
        in,
        value,
        release,
        decline,
        declineArgs,
        answer,
        refusesNulls,
        key,
        adapter,
        stager,
        keepViews,
        origin);
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
      problems.add(
          "adapter '"
              + Text.clip(adapter, 40)
              + "': expected "
              + (known.isEmpty() ? "none" : String.join(" or ", known))
              + " on a "
              + kind
              + " site (or no adapter)");
      return null;
    }
    return adapter;
  }

  private static SiteSpec prefetchDepth(
      String block,
      String name,
      Map<String, String> fields,
      MethodRef method,
      Scope in,
      boolean stager,
      String origin,
      List<String> problems) {
    int depth = index(fields, DEPTH, true, method, problems);
    if (depth == SiteSpec.RETURN && method != null && method.isConstructor()) {
      problems.add(
          "depth 'return' on a constructor, which returns nothing: "
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
        problems.add(
            "batch_bytes '" + Text.clip(bytes, 40) + "': expected a size, e.g. 16384 or 16K");
      }
    }
    long activationReserve = 0;
    String reserve = fields.get(ACTIVATION_RESERVE);
    if (reserve != null) {
      try {
        activationReserve = Sizes.parse(reserve);
      } catch (IllegalArgumentException e) {
        problems.add(
            "activation_reserve '" + Text.clip(reserve, 40) + "': expected a size, e.g. 512M");
      }
    }
    String device = "cpu";
    String deviceText = fields.get(DEVICE);
    if (deviceText != null) {
      device = device(deviceText);
      if (device == null) {
        problems.add(
            "device '" + Text.clip(deviceText, 40) + "': expected cpu or cuda:N, e.g. cuda:0");
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
    return new PrefetchDepthSite(
        block,
        name,
        method,
        in,
        depth,
        batch,
        batchBytes,
        activationReserve,
        device,
        executor,
        adapter,
        stager,
        origin);
  }
}
