package org.flodl.budget.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.CacheAdmitSite;
import org.flodl.budget.agent.config.ConfigException;
import org.flodl.budget.agent.config.JdkTypes;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Option;
import org.flodl.budget.agent.config.PrefetchDepthSite;
import org.flodl.budget.agent.config.Presets;
import org.flodl.budget.agent.config.Scope;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.config.SitesFile;
import org.flodl.budget.agent.gate.Decline;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.agent.library.EntryHook;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.weave.Rule;

/**
 * The sites of a start: the sites file and the presets read into site specs (their warnings said,
 * their conflicts settled), and each spec bound to its gate point as the weaving rules the
 * transformer applies.
 */
final class SiteBinding {
  /** The prefix of the name a library's own hook is woven under: {@code hook:arrow}. */
  static final String HOOK = "hook:";

  private SiteBinding() {}

  /**
   * Returns the sites of the sites file, then of the presets asked for, then of the libraries on by
   * default (DJL's, unless {@code djl=off}; every library's where no argument chose what to budget,
   * {@link AgentConfig#observesAll}), without conflicts; each problem is one line. Under {@code
   * strict=true} any problem with the sites file, a file with no usable site, and a conflict
   * between sites fail the start.
   */
  static List<SiteSpec> sites(AgentConfig config) throws ConfigException {
    List<SiteSpec> all = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    List<String> presets = new ArrayList<>(config.presets());
    if (config.sites().isPresent()) {
      SitesFile file = SitesFile.load(config.sites().get());
      if (config.strict()
          && (!file.warnings().isEmpty() || file.sites().isEmpty() && file.presets().isEmpty())) {
        String first =
            file.warnings().isEmpty()
                ? "declares no usable site"
                : file.warnings().get(0).replace("flodl-budget: ", "");
        throw new ConfigException(
            Option.SITES.key(), "sites=" + config.sites().get() + ": " + first);
      }
      warnings.addAll(file.warnings());
      all.addAll(file.sites());
      for (String p : file.presets()) {
        if (!presets.contains(p) && (config.djl() || !onByDefault(p))) { // djl=off wins
          presets.add(p);
        }
      }
    }
    for (Library l : Library.all()) {
      boolean observed = config.observesAll() && l.hasPreset(); // the bare flag: every preset
      if ((observed || config.djl() && l.onByDefault()) && !presets.contains(l.name())) {
        presets.add(l.name());
      }
    }
    for (String p : presets) {
      SitesFile preset = Presets.load(p);
      warnings.addAll(preset.warnings());
      all.addAll(preset.sites());
    }
    int before = warnings.size();
    List<SiteSpec> kept = SitesFile.withoutConflicts(all, warnings);
    if (config.strict() && warnings.size() > before) {
      throw new ConfigException(
          Option.SITES.key(), warnings.get(before).replace("flodl-budget: ", ""));
    }
    for (String w : warnings) {
      Log.warn(w);
    }
    return kept;
  }

  /** Returns library {@code l}'s own entry hooks; none where it cannot give them (said once). */
  private static List<EntryHook> hooks(Library l) {
    try {
      return l.hooks(EntryHook.class);
    } catch (RuntimeException | LinkageError e) {
      Log.warn("library " + l.name() + "'s hooks could not be made, none woven: " + e);
      return List.of();
    }
  }

  private static boolean onByDefault(String preset) {
    Library l = Library.named(preset);
    return l != null && l.onByDefault();
  }

  /**
   * Returns the weaving rules of every site, each bound to its gate point; a site with {@code
   * adapter = NAME} takes library NAME's adapter (one for all its sites; {@code vramProbe} is the
   * {@code vram_probe} setting): on a cache-admit site, the library's {@link ArgumentAdapter} where
   * it has one (the argument wrapped), else its entry hook, woven once.
   */
  static List<Rule> bind(GateEngine engine, List<SiteSpec> specs, String vramProbe) {
    List<Rule> rules = new ArrayList<>();
    Map<String, DepthAdapter> adapters = new HashMap<>();
    List<String> hooked = new ArrayList<>();
    Map<String, ArgumentAdapter> wrappers = new HashMap<>();
    for (Library l : Library.all()) {
      for (EntryHook hook : hooks(l)) {
        rules.add(
            Rule.of(
                    engine.bindHook(null, hook),
                    HOOK + l.name(),
                    Rule.Role.HOOK,
                    MethodRef.parse(hook.method()))
                .withContextArgs(hook.readsArguments())
                .withPreset(true));
      }
    }
    for (SiteSpec s : specs) {
      boolean preset = s.origin().startsWith("preset ");
      if (s instanceof CacheAdmitSite c && c.adapter() != null && !hooked.contains(c.adapter())) {
        hooked.add(c.adapter());
        Library library = Library.named(c.adapter());
        ArgumentAdapter wraps =
            library == null ? null : library.adapter(ArgumentAdapter.class, vramProbe);
        EntryHook hook =
            wraps != null
                ? null // the library wraps the argument: its sites need no hook
                : adapter(c.adapter(), EntryHook.class, vramProbe);
        wrappers.put(c.adapter(), wraps);
        if (hook != null) {
          rules.add(
              Rule.of(
                      engine.bindHook(c.name(), hook),
                      c.name(),
                      Rule.Role.HOOK,
                      MethodRef.parse(hook.method()))
                  .withPreset(true));
        }
      }
      if (s instanceof CacheAdmitSite c) {
        boolean returned = c.returned();
        if (c.keepViews()) {
          engine.keepViews(c.name()); // before its points are bound
        }
        int id =
            engine.bindAdmit(
                c.name(),
                returned,
                c.isCallSite(),
                decline(c),
                c.adapter() == null ? null : wrappers.get(c.adapter()));
        rules.add(
            Rule.of(
                    id,
                    c.name(),
                    returned ? Rule.Role.ADMIT_RETURN : Rule.Role.ADMIT_ARG,
                    c.method())
                .withScope(c.in())
                .withArgument(returned ? -1 : c.value())
                .withDeclineArgs(c.decline() == null ? null : c.declineArgs())
                .withKey(c.key())
                .withPreset(preset));
        if (c.release() != null) {
          rules.add(
              Rule.of(engine.bindRelease(c.name()), c.name(), Rule.Role.RELEASE, c.release())
                  .withScope(companionScope(c.release().className(), c.in()))
                  .withPreset(preset));
        }
      } else if (s instanceof PrefetchDepthSite p) {
        DepthAdapter adapter = null;
        if (p.adapter() != null) {
          if (!adapters.containsKey(p.adapter())) { // null kept too: a missing one said once
            adapters.put(p.adapter(), adapter(p.adapter(), DepthAdapter.class, vramProbe));
          }
          adapter = adapters.get(p.adapter());
        }
        int id =
            engine.bindDepth(
                p.name(),
                p.device(),
                p.deviceIndex(),
                p.batchBytes(),
                p.activationReserve(),
                p.isCallSite(),
                adapter);
        rules.add(
            Rule.of(
                    id,
                    p.name(),
                    p.returned() ? Rule.Role.DEPTH_RETURN : Rule.Role.DEPTH_ARG,
                    p.method())
                .withScope(p.in())
                .withArgument(p.returned() ? -1 : p.depth())
                .withExecutor(p.executor())
                .withContextArgs(adapter != null)
                .withPreset(preset));
        if (p.batch() != null) {
          rules.add(
              Rule.of(engine.bindBatch(p.name()), p.name(), Rule.Role.BATCH, p.batch())
                  .withScope(companionScope(p.batch().className(), p.in()))
                  .withPreset(preset));
        }
      }
    }
    return rules;
  }

  /**
   * Returns library {@code name}'s adapter of {@code type}, or null (said once) where it has none.
   */
  private static <T> T adapter(String name, Class<T> type, String vramProbe) {
    Library library = Library.named(name);
    T adapter = library == null ? null : library.adapter(type, vramProbe);
    if (adapter == null) {
      Log.warn(
          "adapter '"
              + name
              + "': the library gives no "
              + type.getSimpleName()
              + "; its sites are bound the sites-file way");
    }
    return adapter;
  }

  /** The site's decline call for the gate, or null where it has none. */
  private static Decline decline(CacheAdmitSite c) {
    return c.decline() == null
        ? null
        : new Decline(c.decline(), c.answer(), c.refusesNulls(), c.declineArgs());
  }

  /**
   * Returns where a site's release or batch method is woven: its bodies (null) when it is the
   * application's, else, for a JDK type, its calls anywhere in the classes {@code in} names.
   */
  private static Scope companionScope(String className, Scope in) {
    if (in == null || !JdkTypes.isJdk(className)) {
      return null;
    }
    return in.kind() == Scope.Kind.METHOD ? new Scope(Scope.Kind.CLASS, in.name(), null) : in;
  }

  /** Says at start which named classes are not on the class path (another loader may have them). */
  static void warnMissingClasses(List<SiteSpec> specs) {
    for (SiteSpec s : specs) {
      if (s.origin().startsWith("preset ")) {
        continue;
      }
      List<String> named = new ArrayList<>();
      named.add(
          s.in() != null && s.in().method() != null
              ? s.in().name()
              : s.in() == null ? s.method().className() : null);
      if (s instanceof CacheAdmitSite c
          && c.release() != null
          && !JdkTypes.isJdk(c.release().className())) {
        named.add(c.release().className());
      }
      if (s instanceof PrefetchDepthSite p
          && p.batch() != null
          && !JdkTypes.isJdk(p.batch().className())) {
        named.add(p.batch().className());
      }
      for (String n : named) {
        if (n != null && ClassLoader.getSystemResource(n.replace('.', '/') + ".class") == null) {
          Log.warn(
              "site '"
                  + s.block()
                  + "': class "
                  + n
                  + " is not on the class path;"
                  + " nothing is woven there unless another class loader defines it");
        }
      }
    }
  }
}
