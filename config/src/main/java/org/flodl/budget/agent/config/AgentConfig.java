package org.flodl.budget.agent.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
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
 * is an {@link Option} with its default and parser; an unknown key or a bad value is a {@link
 * ConfigException} whose one-line message names the key and what was expected, and which says
 * whether {@code strict=true} was asked for (read from the same entries, whatever else is bad).
 */
public final class AgentConfig {
  /** Prefix of the system properties: {@code -Dflodl.budget.ram_max_usage=0.4}. */
  public static final String PROPERTY_PREFIX = "flodl.budget.";

  /** Prefix of the environment variables: {@code FLODL_BUDGET_RAM_MAX_USAGE=0.4}. */
  public static final String ENV_PREFIX = "FLODL_BUDGET_";

  /**
   * The keys that choose what the agent budgets, and how: where none is set, from any source, the
   * agent observes every library's preset and DJL's prefetch and changes nothing ({@link
   * #observesAll}).
   */
  private static final List<Option> CHOICES =
      List.of(Option.MODE, Option.ENABLED, Option.SITES, Option.PRESETS, Option.DJL);

  private final EnumMap<Option, Object> values;
  private final Map<String, Setting> settings;
  private final boolean observesAll;

  private AgentConfig(
      EnumMap<Option, Object> values, Map<String, Setting> settings, boolean observesAll) {
    this.values = values;
    this.settings = Collections.unmodifiableMap(settings);
    this.observesAll = observesAll;
  }

  /** Returns every key the agent knows, in documentation order. */
  public static List<String> keys() {
    List<String> keys = new ArrayList<>();
    for (Option o : Option.values()) {
      keys.add(o.key());
    }
    return keys;
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
   * @throws ConfigException for the first unknown key, malformed entry or bad value, with {@link
   *     ConfigException#strict()} set where {@code strict=true} was asked for
   */
  public static AgentConfig resolve(
      String agentArgs, Properties systemProperties, Map<String, String> environment)
      throws ConfigException {
    List<ConfigException> problems = new ArrayList<>(1);
    Map<String, String> args = ConfigSources.agentArgs(agentArgs, problems);
    Map<String, String> props = ConfigSources.systemProperties(systemProperties, problems);
    Map<String, String> env = ConfigSources.environment(environment, problems);
    boolean strict = strict(args, props, env);
    if (!problems.isEmpty()) {
      throw problems.get(0).strict(strict);
    }
    EnumMap<Option, Object> values = new EnumMap<>(Option.class);
    Map<String, Setting> settings = new LinkedHashMap<>();
    for (Option o : Option.values()) {
      String key = o.key();
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
        text = o.defaultText();
      }
      text = text == null ? "" : text.trim();
      if (source != Source.DEFAULT && text.isEmpty()) {
        throw new ConfigException(
                key,
                "empty "
                    + key
                    + " ("
                    + ConfigSources.origin(key, source)
                    + "): expected "
                    + o.expected())
            .strict(strict);
      }
      Option.Parsed p;
      try {
        p = o.parse(text);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(
                key,
                "bad "
                    + key
                    + " '"
                    + text
                    + "' ("
                    + ConfigSources.origin(key, source)
                    + "): "
                    + e.getMessage())
            .strict(strict);
      }
      values.put(o, p.value());
      settings.put(key, new Setting(key, p.text(), source));
    }
    boolean observesAll = true;
    for (Option o : CHOICES) {
      observesAll &= settings.get(o.key()).source() == Source.DEFAULT;
    }
    if (observesAll) { // the bare flag: nobody said what to budget, so nothing is enforced
      values.put(Option.MODE, Mode.OBSERVE);
      settings.put(
          Option.MODE.key(), new Setting(Option.MODE.key(), Mode.OBSERVE.label(), Source.DEFAULT));
    }
    return new AgentConfig(values, settings, observesAll);
  }

  /**
   * Returns whether no key chose what to budget ({@code mode}, {@code enabled}, {@code sites},
   * {@code presets} or {@code djl}, from any source): the bare flag, or one with knobs or {@code
   * record=} alone. The agent then observes the presets of every library and DJL's prefetch in
   * {@code mode=observe}, changes nothing, and says at exit what a budget would have done.
   */
  public boolean observesAll() {
    return observesAll;
  }

  /**
   * Returns whether {@code strict=true} is among the entries, with the same precedence, read before
   * anything is checked so that a bad other key can still honour it.
   */
  private static boolean strict(
      Map<String, String> args, Map<String, String> props, Map<String, String> env) {
    String key = Option.STRICT.key();
    String v =
        args.containsKey(key)
            ? args.get(key)
            : props.containsKey(key) ? props.get(key) : env.get(key);
    return v != null && v.trim().equalsIgnoreCase("true");
  }

  private Object get(Option o) {
    return values.get(o);
  }

  /** Returns the mode; {@code enabled=false} gives {@link Mode#OFF}. */
  public Mode mode() {
    return (Boolean) get(Option.ENABLED) ? (Mode) get(Option.MODE) : Mode.OFF;
  }

  /** Returns the share of host RAM the direct and native tiers may use (default 0.50). */
  public double ramMaxUsage() {
    return (Double) get(Option.RAM_MAX_USAGE);
  }

  /** Returns the share of the available heap the heap tier may use (default 0.50). */
  public double heapMaxUsage() {
    return (Double) get(Option.HEAP_MAX_USAGE);
  }

  /** Returns the share of VRAM the device tier may use (default 0.90). */
  public double vramMaxUsage() {
    return (Double) get(Option.VRAM_MAX_USAGE);
  }

  /** Returns this job's share of the host, or empty for {@code auto}. */
  public OptionalDouble hostShare() {
    return (OptionalDouble) get(Option.HOST_SHARE);
  }

  /** Returns how depth decisions are applied (default {@code cap}). */
  public PrefetchPolicy prefetch() {
    return (PrefetchPolicy) get(Option.PREFETCH);
  }

  /** Returns the sites file path, as given (relative paths are relative to the JVM's directory). */
  @SuppressWarnings("unchecked")
  public Optional<Path> sites() {
    return (Optional<Path>) get(Option.SITES);
  }

  /**
   * Returns the presets asked for, in order, without duplicates ({@code djl} is added by {@link
   * #djl()}, not here).
   */
  @SuppressWarnings("unchecked")
  public List<String> presets() {
    return (List<String>) get(Option.PRESETS);
  }

  /** Returns whether the container guard reclaims memory near a cgroup's limit (default on). */
  public boolean reclaim() {
    return (Boolean) get(Option.RECLAIM);
  }

  /** Returns whether DJL's data iteration is instrumented (default on). */
  public boolean djl() {
    return (Boolean) get(Option.DJL);
  }

  /** Returns the VRAM probe spec: auto, jcuda, cuda, nvml, none or fixed:USED/TOTAL. */
  public String vramProbe() {
    return (String) get(Option.VRAM_PROBE);
  }

  /** Returns the host RAM probe spec: auto, proc, mxbean or fixed:AVAILABLE. */
  public String ramProbe() {
    return (String) get(Option.RAM_PROBE);
  }

  /** Returns the {@code .jfr} file to record the agent's events into, if any. */
  @SuppressWarnings("unchecked")
  public Optional<Path> record() {
    return (Optional<Path>) get(Option.RECORD);
  }

  /** Returns the most bytes of history {@code record=} keeps (0: no bound). */
  public long recordMaxSize() {
    return (Long) get(Option.RECORD_MAXSIZE);
  }

  /** Returns the oldest history {@code record=} keeps (zero: no bound). */
  public Duration recordMaxAge() {
    return (Duration) get(Option.RECORD_MAXAGE);
  }

  /** Returns the per-decision events' throttle {@code record=} records with ({@code off}: all). */
  public String throttle() {
    return (String) get(Option.THROTTLE);
  }

  /** Returns whether a bad configuration fails the JVM start instead of disabling the agent. */
  public boolean strict() {
    return (Boolean) get(Option.STRICT);
  }

  /** Returns the stderr log level (default warn). */
  public LogLevel log() {
    return (LogLevel) get(Option.LOG);
  }

  /** Returns how often the memory probes refresh (default 1 s). */
  public Duration probeInterval() {
    return (Duration) get(Option.PROBE_INTERVAL);
  }

  /** Returns the job's name for events, or empty to use the main class. */
  public String job() {
    return (String) get(Option.JOB);
  }

  /** Returns every key's effective value text and source, in documentation order. */
  public Map<String, Setting> settings() {
    return settings;
  }

  /** Returns a copy with {@code o} set to {@code value}, recorded as a runtime change. */
  private static AgentConfig with(Option o, Object value, String text, AgentConfig base) {
    EnumMap<Option, Object> v = new EnumMap<>(base.values);
    Map<String, Setting> s = new LinkedHashMap<>(base.settings);
    v.put(o, value);
    s.put(o.key(), new Setting(o.key(), text, Source.RUNTIME));
    return new AgentConfig(v, s, base.observesAll);
  }

  /** Returns a copy in {@code mode}, recorded as a {@link Source#RUNTIME} change. */
  public AgentConfig withMode(Mode newMode) {
    java.util.Objects.requireNonNull(newMode, "mode");
    AgentConfig c = with(Option.MODE, newMode, newMode.label(), this);
    if (newMode != Mode.OFF && !(Boolean) get(Option.ENABLED)) {
      c = with(Option.ENABLED, true, "true", c);
    }
    return c;
  }

  /**
   * Returns a copy with the knob {@code key} ({@code ram_max_usage}, {@code heap_max_usage}, {@code
   * vram_max_usage} or {@code host_share}) set to {@code value}, recorded as a {@link
   * Source#RUNTIME} change.
   *
   * @throws IllegalArgumentException naming the key when it is not a knob or {@code value} is not a
   *     fraction in (0, 1]
   */
  public AgentConfig withKnob(String key, double value) {
    Option o = Option.forKey(String.valueOf(key));
    if (o != Option.RAM_MAX_USAGE
        && o != Option.HEAP_MAX_USAGE
        && o != Option.VRAM_MAX_USAGE
        && o != Option.HOST_SHARE) {
      throw new IllegalArgumentException(
          "unknown knob '"
              + key
              + "' (known: "
              + Option.RAM_MAX_USAGE.key()
              + ", "
              + Option.HEAP_MAX_USAGE.key()
              + ", "
              + Option.VRAM_MAX_USAGE.key()
              + ", "
              + Option.HOST_SHARE.key()
              + ")");
    }
    double f = Knobs.requireFraction(key, value);
    return with(
        o, o == Option.HOST_SHARE ? OptionalDouble.of(f) : (Object) f, Values.format(f), this);
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
}
