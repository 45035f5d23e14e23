package org.flodl.budget.agent.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Properties;
import org.flodl.budget.agent.config.Setting.Source;
import org.flodl.budget.policy.Knobs;

/**
 * The agent's effective configuration, immutable. Parsed JaCoCo-style from {@code
 * key=value,key=value} agent arguments, then {@code -Dflodl.budget.KEY} system properties, then
 * {@code FLODL_BUDGET_KEY} environment variables, then the defaults, in that precedence. Every key
 * is a constant below with its default; an unknown key or a bad value is a {@link
 * ConfigException} whose one-line message names the key and what was expected.
 */
public final class AgentConfig {
  public static final String MODE = "mode";
  public static final String ENABLED = "enabled";
  public static final String RAM_MAX_USAGE = "ram_max_usage";
  public static final String HEAP_MAX_USAGE = "heap_max_usage";
  public static final String VRAM_MAX_USAGE = "vram_max_usage";
  public static final String HOST_SHARE = "host_share";
  public static final String PREFETCH = "prefetch";
  public static final String SITES = "sites";
  public static final String PRESETS = "presets";
  public static final String DJL = "djl";
  public static final String VRAM_PROBE = "vram_probe";
  public static final String RAM_PROBE = "ram_probe";
  public static final String RECORD = "record";
  public static final String STRICT = "strict";
  public static final String LOG = "log";
  public static final String PROBE_INTERVAL = "probe_interval";
  public static final String JOB = "job";
  public static final String RECLAIM = "reclaim";

  /** Prefix of the system properties: {@code -Dflodl.budget.ram_max_usage=0.4}. */
  public static final String PROPERTY_PREFIX = "flodl.budget.";
  /** Prefix of the environment variables: {@code FLODL_BUDGET_RAM_MAX_USAGE=0.4}. */
  public static final String ENV_PREFIX = "FLODL_BUDGET_";

  /** Every key with its default text (an empty text: none), in documentation order. */
  private static final Map<String, String> DEFAULTS = defaultTexts();

  private static Map<String, String> defaultTexts() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put(MODE, "enforce");
    d.put(ENABLED, "true");
    d.put(RAM_MAX_USAGE, "0.5");
    d.put(HEAP_MAX_USAGE, "0.5");
    d.put(VRAM_MAX_USAGE, "0.9");
    d.put(HOST_SHARE, "auto");
    d.put(PREFETCH, "cap");
    d.put(SITES, "");
    d.put(PRESETS, "");
    d.put(DJL, "on");
    d.put(VRAM_PROBE, "auto");
    d.put(RAM_PROBE, "auto");
    d.put(RECORD, "");
    d.put(STRICT, "false");
    d.put(LOG, "warn");
    d.put(PROBE_INTERVAL, "1s");
    d.put(JOB, "");
    d.put(RECLAIM, "on");
    return Collections.unmodifiableMap(d);
  }

  private final Mode mode;
  private final boolean enabled;
  private final double ramMaxUsage;
  private final double heapMaxUsage;
  private final double vramMaxUsage;
  private final OptionalDouble hostShare;
  private final PrefetchPolicy prefetch;
  private final Optional<Path> sites;
  private final List<String> presets;
  private final boolean djl;
  private final String vramProbe;
  private final String ramProbe;
  private final Optional<Path> record;
  private final boolean strict;
  private final LogLevel log;
  private final Duration probeInterval;
  private final String job;
  private final boolean reclaim;
  private final Map<String, Setting> settings;

  private AgentConfig(Builder b) {
    this.mode = b.enabled ? b.mode : Mode.OFF;
    this.enabled = b.enabled;
    this.ramMaxUsage = b.ramMaxUsage;
    this.heapMaxUsage = b.heapMaxUsage;
    this.vramMaxUsage = b.vramMaxUsage;
    this.hostShare = b.hostShare;
    this.prefetch = b.prefetch;
    this.sites = b.sites;
    this.presets = b.presets;
    this.djl = b.djl;
    this.vramProbe = b.vramProbe;
    this.ramProbe = b.ramProbe;
    this.record = b.record;
    this.strict = b.strict;
    this.log = b.log;
    this.probeInterval = b.probeInterval;
    this.job = b.job;
    this.reclaim = b.reclaim;
    this.settings = Collections.unmodifiableMap(new LinkedHashMap<>(b.settings));
  }

  /** Returns every key the agent knows, in documentation order. */
  public static List<String> keys() {
    return List.copyOf(DEFAULTS.keySet());
  }

  /** Returns the configuration with every key at its default. */
  public static AgentConfig defaults() {
    try {
      return resolve("", new Properties(), Map.of());
    } catch (ConfigException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Returns the configuration from {@code agentArgs} ({@code key=value,key=value}, may be null),
   * then {@code flodl.budget.*} entries of {@code systemProperties}, then {@code FLODL_BUDGET_*}
   * entries of {@code environment}, then the defaults.
   *
   * @throws ConfigException for the first unknown key, malformed entry or bad value
   */
  public static AgentConfig resolve(
      String agentArgs, Properties systemProperties, Map<String, String> environment)
      throws ConfigException {
    Map<String, String> args = ConfigSources.agentArgs(agentArgs);
    Map<String, String> props = ConfigSources.systemProperties(systemProperties);
    Map<String, String> env = ConfigSources.environment(environment);
    Builder b = new Builder();
    for (Map.Entry<String, String> d : DEFAULTS.entrySet()) {
      String key = d.getKey();
      Source source;
      String text;
      if (args.containsKey(key)) {
        source = Source.AGENT_ARGS;
        text = args.get(key);
      } else if (props.containsKey(key)) {
        source = Source.SYSTEM_PROPERTY;
        text = props.get(key);
      } else if (env.containsKey(key)) {
        source = Source.ENVIRONMENT;
        text = env.get(key);
      } else {
        source = Source.DEFAULT;
        text = d.getValue();
      }
      text = text == null ? "" : text.trim();
      if (source != Source.DEFAULT && text.isEmpty()) {
        throw new ConfigException(
            key,
            "empty " + key + " (" + ConfigSources.origin(key, source) + "): expected "
                + expected(key));
      }
      try {
        b.set(key, text, source);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
            key,
            "bad " + key + " '" + text + "' (" + ConfigSources.origin(key, source) + "): "
                + e.getMessage());
      }
    }
    return new AgentConfig(b);
  }

  /**
   * Returns whether {@code strict=true} was asked for, best-effort and with the same precedence,
   * so that a bad other key can still honour it. Never throws.
   */
  public static boolean strictRequested(
      String agentArgs, Properties systemProperties, Map<String, String> environment) {
    try {
      if (agentArgs != null) {
        String found = null;
        for (String entry : agentArgs.split(",", -1)) {
          int eq = entry.indexOf('=');
          if (eq > 0 && entry.substring(0, eq).trim().equals(STRICT)) {
            found = entry.substring(eq + 1).trim();
          }
        }
        if (found != null) {
          return found.equalsIgnoreCase("true");
        }
      }
      if (systemProperties != null) {
        String v = systemProperties.getProperty(PROPERTY_PREFIX + STRICT);
        if (v != null) {
          return v.trim().equalsIgnoreCase("true");
        }
      }
      if (environment != null) {
        String v = environment.get(ENV_PREFIX + "STRICT");
        if (v != null) {
          return v.trim().equalsIgnoreCase("true");
        }
      }
    } catch (RuntimeException e) {
      return false;
    }
    return false;
  }

  /** Returns what {@code key} accepts, for messages. */
  static String expected(String key) {
    return switch (key) {
      case MODE -> "enforce, observe or off";
      case ENABLED, STRICT -> "true or false";
      case RAM_MAX_USAGE, HEAP_MAX_USAGE, VRAM_MAX_USAGE -> Values.FRACTION;
      case HOST_SHARE -> "auto or " + Values.FRACTION;
      case PREFETCH -> "cap or auto";
      case SITES -> "the path of a sites file";
      case PRESETS -> "preset names separated by ':' (" + String.join(", ", Presets.NAMES) + ")";
      case DJL -> "on or off";
      case VRAM_PROBE -> Values.VRAM_PROBES;
      case RAM_PROBE -> Values.RAM_PROBES;
      case RECORD -> "the path of a .jfr file";
      case LOG -> "warn, info or debug";
      case PROBE_INTERVAL -> Values.DURATION;
      case JOB -> "a job name";
      case RECLAIM -> "on or off";
      default -> throw new IllegalArgumentException(key);
    };
  }

  /** Returns the mode; {@code enabled=false} gives {@link Mode#OFF}. */
  public Mode mode() {
    return mode;
  }

  /** Returns the share of host RAM the direct and native tiers may use (default 0.50). */
  public double ramMaxUsage() {
    return ramMaxUsage;
  }

  /** Returns the share of the available heap the heap tier may use (default 0.50). */
  public double heapMaxUsage() {
    return heapMaxUsage;
  }

  /** Returns the share of VRAM the device tier may use (default 0.90). */
  public double vramMaxUsage() {
    return vramMaxUsage;
  }

  /** Returns this job's share of the host, or empty for {@code auto}. */
  public OptionalDouble hostShare() {
    return hostShare;
  }

  /** Returns how depth decisions are applied (default {@code cap}). */
  public PrefetchPolicy prefetch() {
    return prefetch;
  }

  /** Returns the sites file path, as given (relative paths are relative to the JVM's directory). */
  public Optional<Path> sites() {
    return sites;
  }

  /**
   * Returns the presets asked for, in order, without duplicates ({@code djl} is added by {@link
   * #djl()}, not here).
   */
  public List<String> presets() {
    return presets;
  }

  /** Returns whether the container guard reclaims memory near a cgroup's limit (default on). */
  public boolean reclaim() {
    return reclaim;
  }

  /** Returns whether DJL's data iteration is instrumented (default on). */
  public boolean djl() {
    return djl;
  }

  /** Returns the VRAM probe spec: auto, jcuda, cuda, nvml, none or fixed:USED/TOTAL. */
  public String vramProbe() {
    return vramProbe;
  }

  /** Returns the host RAM probe spec: auto, proc, mxbean or fixed:AVAILABLE. */
  public String ramProbe() {
    return ramProbe;
  }

  /** Returns the {@code .jfr} file to record the agent's events into, if any. */
  public Optional<Path> record() {
    return record;
  }

  /** Returns whether a bad configuration fails the JVM start instead of disabling the agent. */
  public boolean strict() {
    return strict;
  }

  /** Returns the stderr log level (default warn). */
  public LogLevel log() {
    return log;
  }

  /** Returns how often the memory probes refresh (default 1 s). */
  public Duration probeInterval() {
    return probeInterval;
  }

  /** Returns the job's name for events, or empty to use the main class. */
  public String job() {
    return job;
  }

  /** Returns every key's effective value text and source, in documentation order. */
  public Map<String, Setting> settings() {
    return settings;
  }

  /** Returns a copy in {@code mode}, recorded as a {@link Source#RUNTIME} change. */
  public AgentConfig withMode(Mode newMode) {
    Builder b = new Builder(this);
    b.mode = java.util.Objects.requireNonNull(newMode, "mode");
    b.settings.put(MODE, new Setting(MODE, newMode.label(), Source.RUNTIME));
    if (newMode != Mode.OFF && !b.enabled) {
      b.enabled = true;
      b.settings.put(ENABLED, new Setting(ENABLED, "true", Source.RUNTIME));
    }
    return new AgentConfig(b);
  }

  /**
   * Returns a copy with the knob {@code key} ({@code ram_max_usage}, {@code heap_max_usage},
   * {@code vram_max_usage} or {@code host_share}) set to {@code value}, recorded as a {@link
   * Source#RUNTIME} change.
   *
   * @throws IllegalArgumentException naming the key when it is not a knob or {@code value} is not
   *     a fraction in (0, 1]
   */
  public AgentConfig withKnob(String key, double value) {
    Builder b = new Builder(this);
    switch (String.valueOf(key)) {
      case RAM_MAX_USAGE -> b.ramMaxUsage = Knobs.requireFraction(key, value);
      case HEAP_MAX_USAGE -> b.heapMaxUsage = Knobs.requireFraction(key, value);
      case VRAM_MAX_USAGE -> b.vramMaxUsage = Knobs.requireFraction(key, value);
      case HOST_SHARE -> b.hostShare = OptionalDouble.of(Knobs.requireFraction(key, value));
      default -> throw new IllegalArgumentException(
          "unknown knob '" + key + "' (known: " + RAM_MAX_USAGE + ", " + HEAP_MAX_USAGE + ", "
              + VRAM_MAX_USAGE + ", " + HOST_SHARE + ")");
    }
    b.settings.put(key, new Setting(key, Values.format(value), Source.RUNTIME));
    return new AgentConfig(b);
  }

  /** Returns the settings as agent arguments, {@code key=value,...}, without empty values. */
  @Override
  public String toString() {
    List<String> parts = new ArrayList<>();
    for (Setting s : settings.values()) {
      if (!s.value().isEmpty()) {
        parts.add(s.key() + "=" + s.value());
      }
    }
    return String.join(",", parts);
  }

  /** Collects parsed values; each setter checks its text and throws with what was expected. */
  private static final class Builder {
    Mode mode;
    boolean enabled;
    double ramMaxUsage;
    double heapMaxUsage;
    double vramMaxUsage;
    OptionalDouble hostShare;
    PrefetchPolicy prefetch;
    Optional<Path> sites;
    List<String> presets;
    boolean djl;
    String vramProbe;
    String ramProbe;
    Optional<Path> record;
    boolean strict;
    LogLevel log;
    Duration probeInterval;
    String job;
    boolean reclaim;
    final Map<String, Setting> settings = new LinkedHashMap<>();

    Builder() {}

    Builder(AgentConfig c) {
      mode = c.mode;
      enabled = c.enabled;
      ramMaxUsage = c.ramMaxUsage;
      heapMaxUsage = c.heapMaxUsage;
      vramMaxUsage = c.vramMaxUsage;
      hostShare = c.hostShare;
      prefetch = c.prefetch;
      sites = c.sites;
      presets = c.presets;
      djl = c.djl;
      vramProbe = c.vramProbe;
      ramProbe = c.ramProbe;
      record = c.record;
      strict = c.strict;
      log = c.log;
      probeInterval = c.probeInterval;
      job = c.job;
      reclaim = c.reclaim;
      settings.putAll(c.settings);
    }

    /** Parses {@code text} for {@code key} and records its canonical text and source. */
    void set(String key, String text, Source source) {
      String value;
      switch (key) {
        case MODE -> {
          mode = Mode.valueOf(Values.choice(text, "enforce", "observe", "off"));
          value = mode.label();
        }
        case ENABLED -> {
          enabled = Values.bool(text, "true", "false");
          value = Boolean.toString(enabled);
        }
        case RAM_MAX_USAGE -> value = Values.format(ramMaxUsage = Values.fraction(key, text));
        case HEAP_MAX_USAGE -> value = Values.format(heapMaxUsage = Values.fraction(key, text));
        case VRAM_MAX_USAGE -> value = Values.format(vramMaxUsage = Values.fraction(key, text));
        case HOST_SHARE -> {
          if (text.equalsIgnoreCase("auto")) {
            hostShare = OptionalDouble.empty();
            value = "auto";
          } else {
            try {
              hostShare = OptionalDouble.of(Values.fraction(key, text));
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException("expected auto or " + Values.FRACTION);
            }
            value = Values.format(hostShare.getAsDouble());
          }
        }
        case PREFETCH -> {
          prefetch = PrefetchPolicy.valueOf(Values.choice(text, "cap", "auto"));
          value = prefetch.label();
        }
        case SITES -> {
          sites = text.isEmpty() ? Optional.empty() : Optional.of(Values.path(text));
          value = text;
        }
        case PRESETS -> {
          presets = Values.presets(text);
          value = String.join(":", presets);
        }
        case DJL -> {
          djl = Values.bool(text, "on", "off");
          value = djl ? "on" : "off";
        }
        case RECLAIM -> {
          reclaim = Values.bool(text, "on", "off");
          value = reclaim ? "on" : "off";
        }
        case VRAM_PROBE -> value = vramProbe = Values.vramProbe(text);
        case RAM_PROBE -> value = ramProbe = Values.ramProbe(text);
        case RECORD -> {
          record = text.isEmpty() ? Optional.empty() : Optional.of(Values.path(text));
          value = text;
        }
        case STRICT -> {
          strict = Values.bool(text, "true", "false");
          value = Boolean.toString(strict);
        }
        case LOG -> {
          log = LogLevel.valueOf(Values.choice(text, "warn", "info", "debug"));
          value = log.label();
        }
        case PROBE_INTERVAL -> value = Values.format(probeInterval = Values.duration(text));
        case JOB -> value = job = text;
        default -> throw new IllegalStateException("no parser for " + key);
      }
      settings.put(key, new Setting(key, value, source));
    }
  }
}
