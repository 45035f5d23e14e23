package org.flodl.budget.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Properties;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.ConfigException;
import org.flodl.budget.agent.config.LogLevel;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.PrefetchPolicy;
import org.flodl.budget.agent.config.Setting;
import org.flodl.budget.agent.config.SiteSpec;
import org.flodl.budget.agent.config.SitesFile;
import org.flodl.budget.agent.control.AgentControl;
import org.flodl.budget.agent.record.BudgetRecording;
import org.flodl.budget.agent.gate.Gate;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.HostShareSource;
import org.flodl.budget.agent.gate.Log;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.agent.weave.SiteTransformer;
import org.flodl.budget.agent.weave.WeavePoint;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.policy.pricing.RetentionPricer;
import org.flodl.budget.policy.probe.MemoryProbes;

/**
 * What {@code premain} and {@code agentmain} do, in order: resolve the arguments, read the sites
 * file, bind each site's points to the gate, install the name-checking transformer (classes
 * already loaded are retransformed), and leave the rest (probes, periodic events, the MBean) to
 * the first woven class. A bad argument or an unreadable sites file is one line on stderr and the
 * agent stays off ({@code strict=true}: the start fails); anything else that goes wrong is one
 * line and the application runs on.
 */
final class Bootstrap {
  private static volatile boolean started;

  private Bootstrap() {}

  static void start(String agentArgs, Instrumentation inst, boolean attached) {
    boolean strict = false;
    try {
      Properties props = System.getProperties();
      Map<String, String> env = System.getenv();
      strict = AgentConfig.strictRequested(agentArgs, props, env);
      AgentConfig config;
      try {
        config = AgentConfig.resolve(agentArgs, props, env);
      } catch (ConfigException e) {
        refuse(e, strict, attached);
        return;
      }
      Log.level(level(config.log()));
      if (config.mode() == Mode.OFF) {
        Log.info("mode=off: nothing installed");
        return;
      }
      List<SiteSpec> specs = List.of();
      if (config.sites().isPresent()) {
        try {
          SitesFile file = SitesFile.load(config.sites().get());
          for (String w : file.warnings()) {
            Log.warn(w);
          }
          specs = file.sites();
        } catch (ConfigException e) {
          refuse(e, config.strict(), attached);
          return;
        }
      }
      if (started) {
        Log.warn("the agent is already running in this JVM; the new arguments are ignored");
        return;
      }
      started = true;
      record(config);
      install(config, specs, inst, attached);
    } catch (StrictFailure e) {
      throw e;
    } catch (Throwable t) {
      Log.warn("the agent could not start and is off (" + t + ")");
      if (strict && attached) {
        throw new StrictFailure("flodl-budget: the agent could not start (" + t + ")");
      }
    }
  }

  private static void install(
      AgentConfig config, List<SiteSpec> specs, Instrumentation inst, boolean attached) {
    if (Gate.class.getClassLoader() != null) {
      Log.warn("the agent jar is not on the boot class path (was it renamed from "
          + "flodl-budget-agent.jar?); only classes whose loader sees the agent can be woven");
    }
    GateEngine.Mode mode =
        config.mode() == Mode.OBSERVE ? GateEngine.Mode.OBSERVE : GateEngine.Mode.ENFORCE;
    String ramProbe = config.ramProbe();
    String vramProbe = config.vramProbe();
    java.time.Duration interval = config.probeInterval();
    GateEngine engine = new GateEngine(
        mode,
        config.prefetch() == PrefetchPolicy.AUTO,
        // Anonymous classes, not lambdas, on the start-up path: the first lambda of a JVM
        // bootstraps java.lang.invoke (tens of milliseconds), which the agent need not add.
        new Supplier<RetentionPricer>() {
          @Override
          public RetentionPricer get() {
            return RetentionPricer.standard(inst, ClassLoader.getSystemClassLoader());
          }
        },
        new Supplier<MemoryProbes>() {
          @Override
          public MemoryProbes get() {
            return MemoryProbes.fromSpecs(ramProbe, vramProbe, interval, null);
          }
        },
        interval,
        config.ramMaxUsage(),
        config.heapMaxUsage(),
        config.vramMaxUsage(),
        hostShare(config.hostShare(), config.job()));
    List<WeavePoint> points = bind(engine, specs);
    boolean stager = false;
    for (SiteSpec s : specs) {
      stager |= s.isStager();
    }
    engine.stager(stager);
    Gate.install(engine);
    AgentControl control = new AgentControl(engine, config);
    engine.onStart(new Runnable() {
      @Override
      public void run() {
        Recorder.whenInitialized(() -> registerConfiguration(control));
        control.register();
      }
    });
    Listener listener = new Listener();
    SiteTransformer transformer = new SiteTransformer(points, listener);
    inst.addTransformer(transformer, true);
    warnMissingClasses(specs);
    retransformLoaded(inst, transformer);
    if (config.djl()) {
      // DJL hook: the built-in DataIterable site, no sites file needed (org.flodl.budget.agent.djl).
      org.flodl.budget.agent.djl.Djl.install(inst, engine, config.vramProbe(), new Runnable() {
        @Override
        public void run() {
          engine.start();
        }
      });
    }
    if (attached) {
      engine.start();
    }
    Log.info("enforcing in mode=" + config.mode().label() + " with " + specs.size()
        + " site(s) over " + transformer.classNames().size() + " class(es)");
  }

  /** Starts the {@code record=FILE} recording, written at exit; a failure is one line. */
  private static void record(AgentConfig config) {
    if (config.record().isEmpty()) {
      return;
    }
    Path file = config.record().get();
    try {
      BudgetRecording.start(file);
      Log.info("recording to " + file.toAbsolutePath() + " (written at exit)");
    } catch (IOException | RuntimeException e) {
      Log.warn("record=" + file + ": the recording could not start (" + e.getMessage()
          + "); the agent runs on without it");
    }
  }

  /** Returns the weave points of every site, each bound to its gate id. */
  static List<WeavePoint> bind(GateEngine engine, List<SiteSpec> specs) {
    List<WeavePoint> points = new ArrayList<>();
    for (SiteSpec s : specs) {
      switch (s.kind()) {
        case CACHE_ADMIT:
          points.add(new WeavePoint(engine.bindCacheAdmit(s.name()), s.name(),
              WeavePoint.Role.CACHE_ADMIT, s.className(), s.methodName(), s.parameterTypes(),
              s.valueIndex()));
          if (s.releaseClass() != null) {
            points.add(new WeavePoint(engine.bindRelease(s.name()), s.name(),
                WeavePoint.Role.RELEASE, s.releaseClass(), s.releaseMethod(), s.releaseParams(),
                -1));
          }
          break;
        case PREFETCH_DEPTH:
          int id = engine.bindDepth(s.name(), s.device(), s.deviceIndex(), s.batchBytes());
          boolean ret = s.depthIndex() == SiteSpec.RETURN;
          points.add(new WeavePoint(id, s.name(),
              ret ? WeavePoint.Role.DEPTH_RETURN : WeavePoint.Role.DEPTH_ARGUMENT,
              s.className(), s.methodName(), s.parameterTypes(), ret ? -1 : s.depthIndex()));
          if (s.batchClass() != null) {
            points.add(new WeavePoint(engine.bindBatch(s.name()), s.name(), WeavePoint.Role.BATCH,
                s.batchClass(), s.batchMethod(), null, -1));
          }
          break;
        default:
          Log.warn("site '" + s.name() + "': kind " + s.kind() + " is not handled; skipped");
      }
    }
    return points;
  }

  private static void warnMissingClasses(List<SiteSpec> specs) {
    for (SiteSpec s : specs) {
      String resource = s.className().replace('.', '/') + ".class";
      if (ClassLoader.getSystemResource(resource) == null) {
        Log.warn("site '" + s.name() + "': class " + s.className() + " is not on the class path;"
            + " nothing is woven unless another class loader defines it");
      }
    }
  }

  private static void retransformLoaded(Instrumentation inst, SiteTransformer transformer) {
    List<Class<?>> loaded = new ArrayList<>();
    for (Class<?> c : inst.getAllLoadedClasses()) {
      String name = c.getName();
      if (transformer.targets(name.replace('.', '/')) && inst.isModifiableClass(c)) {
        loaded.add(c);
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

  private static void refuse(ConfigException e, boolean strict, boolean attached) {
    if (!strict) {
      Log.warn(e.getMessage());
      return;
    }
    String line = "flodl-budget: " + e.detail() + "; strict=true, "
        + (attached ? "the agent does not attach" : "the JVM does not start");
    if (attached) {
      Log.warn(line);
      throw new StrictFailure(line);
    }
    Log.warn(line);
    System.exit(1);
  }

  /** Emits the effective settings, at each recording chunk (the Configuration event). */
  static void registerConfiguration(AgentControl control) {
    ConfigurationEvent.register(() -> {
      for (Setting s : control.settings()) {
        ConfigurationEvent.emit(s.key(), s.value(), s.source().name());
      }
    });
  }

  /** The one failure the agent lets out: {@code strict=true} on attach. */
  static final class StrictFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StrictFailure(String line) {
      super(line, null, false, false);
    }
  }

  /** Reports each weave outcome: one line (info when woven, warning when not) and an event. */
  private static final class Listener implements org.flodl.budget.agent.weave.WeaveListener {
    @Override
    public void woven(String className, WeavePoint point) {
      Log.info("wove " + point.role().name().toLowerCase(java.util.Locale.ROOT) + " of site '"
          + point.site() + "' into " + point.methodText());
      if (Recorder.on()) {
        org.flodl.budget.events.InstrumentedEvent.emit(className, point.site(), "WOVEN",
            point.role().name() + " " + point.methodText());
      }
    }

    @Override
    public void failed(String className, WeavePoint point, String reason) {
      Log.warn("site '" + point.site() + "': " + className + " loads unwoven: " + reason);
      if (Recorder.on()) {
        org.flodl.budget.events.InstrumentedEvent.emit(className, point.site(), "FAILED", reason);
      }
    }
  }

}
