package org.flodl.budget.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Consumer;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.ConfigException;
import org.flodl.budget.agent.config.LogLevel;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Option;
import org.flodl.budget.agent.config.PrefetchPolicy;
import org.flodl.budget.agent.config.Setting;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.control.AgentControl;
import org.flodl.budget.agent.gate.EngineSettings;
import org.flodl.budget.agent.gate.Gate;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.HostShareSource;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.library.WatchedClass;
import org.flodl.budget.agent.record.BudgetRecording;
import org.flodl.budget.agent.weave.PointBinder;
import org.flodl.budget.agent.weave.Rule;
import org.flodl.budget.agent.weave.SiteTransformer;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.pricing.RetentionPricer;
import org.flodl.budget.probes.MemoryProbes;
import org.flodl.budget.probes.VramProbe;
import org.flodl.budget.probes.VramProbes;

/**
 * What {@code premain} and {@code agentmain} do, in order: resolve the arguments, read the sites
 * file and the presets, bind each site's rules to the gate, install the transformer (classes
 * already loaded are retransformed), and leave the rest (probes, periodic events, the MBean) to the
 * first woven class. A bad argument or an unreadable sites file is one line on stderr and the agent
 * stays off ({@code strict=true}: the start fails); anything else that goes wrong is one line and
 * the application runs on. Over 300 lines for one job, the start in order, with each of its
 * refusals said in one line; the sites are read and bound in {@link SiteBinding}.
 */
final class Bootstrap {
  private static volatile boolean started;

  private Bootstrap() {}

  /**
   * Attaches: starts as {@link #start} does, and leaves its outcome ({@code started}, {@code off:
   * ...}, {@code refused: LINE}, {@code ignored: LINE}, {@code failed: LINE}) in {@code
   * flodl.budget.attach.ID}. Nothing is thrown into the JVM's attach machinery, {@code strict=true}
   * included: the command reads the refusal back and fails.
   */
  static void attach(String agentArgs, Instrumentation inst, String id) {
    String outcome;
    try {
      outcome = start(agentArgs, inst, true, id);
    } catch (Throwable t) {
      outcome = failed(t);
    }
    if (id != null) {
      try {
        System.setProperty(FlodlBudgetAgent.OUTCOME_PREFIX + id, Text.clip(outcome, 600));
      } catch (Throwable e) {
        Log.warn(NO_OUTCOME);
      }
    }
  }

  /** Said where even the line of a failure cannot be built: the JVM's heap is full. */
  private static final String OUT_OF_MEMORY =
      "the agent could not start and is off (the JVM ran out of memory as it started)";

  private static final String NO_OUTCOME =
      "the outcome of the attach could not be left for the attach command";

  /** Says, in one line, that the start failed with {@code t}; returns the outcome. */
  private static String failed(Throwable t) {
    try {
      String line = "the agent could not start and is off (" + t + ")";
      Log.warn(line);
      return "failed: " + line;
    } catch (Throwable again) {
      Log.warn(OUT_OF_MEMORY);
      return "failed: " + OUT_OF_MEMORY;
    }
  }

  /** Starts the agent; returns the outcome, as {@link #attach} leaves it. */
  static String start(String agentArgs, Instrumentation inst, boolean attached, String id) {
    try {
      AgentConfig config;
      try {
        config = AgentConfig.resolve(agentArgs, System.getProperties(), System.getenv());
      } catch (ConfigException e) {
        return refuse(e, e.strict(), attached);
      }
      Log.level(level(config.log()));
      for (String problem : Library.problems()) {
        Log.warn(problem);
      }
      if (config.mode() == Mode.OFF) {
        Log.info("mode=off: nothing installed");
        return "off: mode=off, nothing installed";
      }
      List<SiteSpec> specs;
      try {
        specs = SiteBinding.sites(config);
      } catch (ConfigException e) {
        return refuse(e, config.strict(), attached);
      }
      if (started) {
        String line = "the agent is already running in this JVM; the new arguments are ignored";
        Log.warn(line);
        return "ignored: " + line;
      }
      String refused = record(config, attached);
      if (refused != null) {
        return refused; // strict=true and record= refused: nothing installed
      }
      started = true;
      install(config, specs, inst, attached);
      return "started";
    } catch (Throwable t) {
      return failed(t);
    }
  }

  private static void install(
      AgentConfig config, List<SiteSpec> specs, Instrumentation inst, boolean attached) {
    if (Gate.class.getClassLoader() != null) {
      Log.warn(
          "the agent jar is not on the boot class path (was it renamed from "
              + "flodl-budget-agent.jar?); only classes whose loader sees the agent can be woven");
    }
    Mode mode = config.mode() == Mode.OBSERVE ? Mode.OBSERVE : Mode.ENFORCE;
    String ramProbe = config.ramProbe();
    String vramProbe = config.vramProbe();
    java.time.Duration interval = config.probeInterval();
    VramProbeOnce vram = new VramProbeOnce(vramProbe); // the refreshes' and a first GPU decision's
    GateEngine engine =
        new GateEngine(
            EngineSettings.builder()
                .mode(mode)
                .prefetchAuto(config.prefetch() == PrefetchPolicy.AUTO)
                // Anonymous classes, not lambdas, on the start-up path: the first lambda of a JVM
                // bootstraps java.lang.invoke (tens of milliseconds), which the agent need not add.
                .pricerFactory(
                    new Supplier<RetentionPricer>() {
                      @Override
                      public RetentionPricer get() {
                        return RetentionPricer.standard(
                            inst, ClassLoader.getSystemClassLoader(), Library.typePricers());
                      }
                    })
                .probeFactory(
                    new Supplier<MemoryProbes>() {
                      @Override
                      public MemoryProbes get() {
                        return MemoryProbes.fromSpecs(ramProbe, vram.get(), interval);
                      }
                    })
                .vramProbe(vram)
                .probeInterval(interval)
                .ramMaxUsage(config.ramMaxUsage())
                .heapMaxUsage(config.heapMaxUsage())
                .vramMaxUsage(config.vramMaxUsage())
                .hostShare(hostShare(config.hostShare(), config.job()))
                .build());
    if (vramProbe != null
        && vramProbe.trim().toLowerCase(java.util.Locale.ROOT).startsWith("fixed:")) {
      engine.expectDevice(); // a fixed reading costs nothing: the device tier has it from the start
    }
    List<Rule> rules = SiteBinding.bind(engine, specs, vramProbe);
    boolean stager = false;
    for (SiteSpec s : specs) {
      stager |= s.stager();
    }
    engine.reclaim(config.reclaim());
    engine.stager(stager);
    Gate.install(engine);
    AgentControl control = new AgentControl(engine, config);
    // The settings are in every recording from install on, even when no site is ever woven.
    Recorder.whenInitializedOffThisThread(
        new Runnable() { // not a lambda: premain (see above)
          @Override
          public void run() {
            registerConfiguration(control);
          }
        });
    engine.onStart(
        new Runnable() {
          @Override
          public void run() {
            control.register();
          }
        });
    SiteTransformer transformer =
        new SiteTransformer(
            rules,
            new PointBinder() {
              @Override
              public int bindSupertypeBody(Rule rule, String receiverType) {
                return engine.bindForReceivers(rule.id(), receiverType);
              }
            },
            new WeaveLog(engine),
            watches());
    transformer.instrumentation(inst);
    inst.addTransformer(transformer, true);
    SiteBinding.warnMissingClasses(specs);
    retransformLoaded(inst, transformer);
    ExitReports.install(config, specs, rules, transformer, engine);
    if (attached) {
      engine.start();
    }
    Log.info(
        "enforcing in mode="
            + config.mode().label()
            + " with "
            + specs.size()
            + " site block(s), "
            + rules.size()
            + " weaving rule(s)");
  }

  /** Returns the classes the libraries watch, each with what tells its library it loaded. */
  private static Map<String, Consumer<ClassLoader>> watches() {
    Map<String, Consumer<ClassLoader>> watches = new HashMap<>();
    for (Library l : Library.all()) {
      for (WatchedClass w : l.watched()) {
        watches.put(
            w.internalName(),
            new Consumer<ClassLoader>() { // not a lambda: premain
              @Override
              public void accept(ClassLoader loader) {
                w.seen(loader);
              }
            });
      }
    }
    return watches;
  }

  /**
   * Starts the {@code record=FILE} recording, written at exit (its chunks kept in {@code
   * FILE.chunks/} while it runs); a failure is one line, and under {@code strict=true} a refused
   * start (its outcome is returned then; null otherwise).
   */
  private static String record(AgentConfig config, boolean attached) {
    if (config.record().isEmpty()) {
      return null;
    }
    Path file = config.record().get();
    try {
      BudgetRecording.start(
          file,
          new BudgetRecording.Limits(
              BudgetRecording.DEFAULT_SETTINGS,
              config.recordMaxSize(),
              config.recordMaxAge(),
              config.throttle()),
          new Consumer<String>() {
            @Override
            public void accept(String line) {
              Log.warn(line);
            }
          });
      Log.info(
          "recording to "
              + file.toAbsolutePath()
              + " (written at exit; while the JVM runs "
              + "its chunks are kept in "
              + file.getFileName()
              + BudgetRecording.CHUNKS
              + "/)");
      return null;
    } catch (IOException | RuntimeException e) {
      String why =
          e instanceof java.nio.file.NoSuchFileException
              ? "no such file or folder"
              : e instanceof java.nio.file.AccessDeniedException
                  ? "permission denied"
                  : String.valueOf(e.getMessage());
      String detail = "record=" + file + ": the recording cannot start (" + why + ")";
      if (config.strict()) {
        return refuse(new ConfigException(Option.RECORD.key(), detail), true, attached);
      }
      Log.warn(detail + "; the agent runs on without it");
      return null;
    }
  }

  private static void retransformLoaded(Instrumentation inst, SiteTransformer transformer) {
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      try {
        if (inst.isModifiableClass(c) && transformer.candidate(c)) {
          loaded.add(c);
        }
      } catch (Throwable t) {
        // a class whose hierarchy cannot be read is left as it is
      }
    }
    for (Class<?> c : loaded) {
      try {
        inst.retransformClasses(c);
      } catch (Throwable t) {
        Log.warn("cannot retransform " + c.getName() + " (" + t + "); it stays as loaded");
      }
    }
  }

  private static DoubleSupplier hostShare(OptionalDouble configured, String job) {
    if (configured.isPresent()) {
      double share = configured.getAsDouble();
      return new DoubleSupplier() {
        @Override
        public double getAsDouble() {
          return share;
        }
      };
    }
    return new HostShareSource(job);
  }

  private static int level(LogLevel level) {
    switch (level) {
      case DEBUG:
        return Log.DEBUG;
      case INFO:
        return Log.INFO;
      default:
        return Log.WARN;
    }
  }

  /**
   * Says why the agent is off, in one line, and returns the outcome ({@code refused: LINE}); under
   * {@code strict=true} a JVM starting with the agent exits with status 1 instead.
   */
  private static String refuse(ConfigException e, boolean strict, boolean attached) {
    if (!strict) {
      Log.warn(e.getMessage());
      return "refused: " + e.getMessage();
    }
    String line =
        ConfigException.line(
            e.detail(),
            "; strict=true, "
                + (attached ? "the agent does not attach" : "the JVM does not start"));
    Log.warn(line);
    if (!attached) {
      System.exit(1);
    }
    return "refused: " + line;
  }

  /** Emits the effective settings, at each recording chunk (the Configuration event). */
  static void registerConfiguration(AgentControl control) {
    ConfigurationEvent.register(
        new Runnable() { // runs in premain when JFR is on at start
          @Override
          public void run() {
            for (Setting s : control.settings()) {
              ConfigurationEvent.emit(s.key(), s.value(), s.source().name());
            }
          }
        });
  }

  /** The GPU probe {@code vram_probe} names, built at its first use and then shared. */
  private static final class VramProbeOnce implements Supplier<VramProbe> {
    private final String spec;
    private VramProbe probe; // guarded by this

    VramProbeOnce(String spec) {
      this.spec = spec;
    }

    @Override
    public synchronized VramProbe get() {
      if (probe == null) {
        probe = VramProbes.fromSpec(spec, null);
      }
      return probe;
    }
  }
}
