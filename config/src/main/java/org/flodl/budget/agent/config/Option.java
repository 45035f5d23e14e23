package org.flodl.budget.agent.config;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The agent's options, each once, JaCoCo-style: its key (the constant's name in lower case), its
 * default text, what it accepts, and, in {@link #parse}, how its text becomes its value. The order
 * is the documentation's.
 */
public enum Option {
  /** {@code enforce}, {@code observe} or {@code off}. */
  MODE("enforce", "enforce, observe or off"),
  /** {@code false} is {@code mode=off}. */
  ENABLED("true", "true or false"),
  /** The share of host RAM the direct and native tiers may use. */
  RAM_MAX_USAGE("0.5", Values.FRACTION),
  /** The share of the available heap the heap tier may use. */
  HEAP_MAX_USAGE("0.5", Values.FRACTION),
  /** The share of VRAM the device tier may use. */
  VRAM_MAX_USAGE("0.9", Values.FRACTION),
  /** This JVM's share of the host, or {@code auto} (the registry's). */
  HOST_SHARE("auto", "auto or " + Values.FRACTION),
  /** {@code cap} (only lower a requested depth) or {@code auto} (the policy's depth). */
  PREFETCH("cap", "cap or auto"),
  /** The sites file. */
  SITES("", "the path of a sites file"),
  /** Presets by name, separated by {@code :}. */
  PRESETS("", "preset names separated by ':' (" + String.join(", ", Presets.NAMES) + ")"),
  /** The built-in DJL site. */
  DJL("on", "on or off"),
  /** Where VRAM is read. */
  VRAM_PROBE("auto", Values.VRAM_PROBES),
  /** Where host RAM is read. */
  RAM_PROBE("auto", Values.RAM_PROBES),
  /** The {@code .jfr} file to record into. */
  RECORD("", "the path of a .jfr file"),
  /** The most history {@code record=} keeps on disk and writes at exit, in bytes (0: no bound). */
  RECORD_MAXSIZE("250M", "a size like 100M or 2G, or 0 for no bound"),
  /** The oldest history {@code record=} keeps (0: no bound). */
  RECORD_MAXAGE("0", Values.AGE),
  /** Per-decision events a second per site and kind that {@code record=} records, or off. */
  THROTTLE(
      org.flodl.budget.events.DecisionThrottle.DEFAULT,
      "N/s (events a second per site and decision kind) or off"),
  /** Whether a bad configuration fails the JVM's start instead of disabling the agent. */
  STRICT("false", "true or false"),
  /** How much the agent writes to stderr. */
  LOG("warn", "warn, info or debug"),
  /** How often the memory probes are read. */
  PROBE_INTERVAL("1s", Values.DURATION),
  /** The job's name for the host-share registry and events. */
  JOB("", "a job name"),
  /** Whether the container guard reclaims memory near a cgroup's limit. */
  RECLAIM("on", "on or off");

  private final String defaultText;
  private final String expected;

  Option(String defaultText, String expected) {
    this.defaultText = defaultText;
    this.expected = expected;
  }

  /** Returns the key as arguments, {@code -Dflodl.budget.KEY} and events spell it. */
  public String key() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Returns the default, as text in the argument syntax ({@code ""}: none). */
  public String defaultText() {
    return defaultText;
  }

  /** Returns what the option accepts, for messages. */
  public String expected() {
    return expected;
  }

  /** Returns the option whose key is {@code key}, or null. */
  public static Option forKey(String key) {
    for (Option o : values()) {
      if (o.key().equals(key)) {
        return o;
      }
    }
    return null;
  }

  /** A parsed value and its canonical text (what the {@code Configuration} event records). */
  record Parsed(Object value, String text) {}

  /**
   * Parses {@code text} (trimmed; empty only for a default of none) into this option's value.
   *
   * @throws IllegalArgumentException saying what was expected
   */
  Parsed parse(String text) {
    switch (this) {
      case MODE:
        {
          Mode m = Mode.valueOf(Values.choice(text, "enforce", "observe", "off"));
          return new Parsed(m, m.label());
        }
      case ENABLED:
      case STRICT:
        {
          boolean b = Values.bool(text, "true", "false");
          return new Parsed(b, Boolean.toString(b));
        }
      case DJL:
      case RECLAIM:
        {
          boolean b = Values.bool(text, "on", "off");
          return new Parsed(b, b ? "on" : "off");
        }
      case RAM_MAX_USAGE:
      case HEAP_MAX_USAGE:
      case VRAM_MAX_USAGE:
        {
          double f = Values.fraction(key(), text);
          return new Parsed(f, Values.format(f));
        }
      case HOST_SHARE:
        {
          if (text.equalsIgnoreCase("auto")) {
            return new Parsed(OptionalDouble.empty(), "auto");
          }
          double f;
          try {
            f = Values.fraction(key(), text);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected " + expected);
          }
          return new Parsed(OptionalDouble.of(f), Values.format(f));
        }
      case PREFETCH:
        {
          PrefetchPolicy p = PrefetchPolicy.valueOf(Values.choice(text, "cap", "auto"));
          return new Parsed(p, p.label());
        }
      case SITES:
      case RECORD:
        {
          Optional<Path> p = text.isEmpty() ? Optional.empty() : Optional.of(Values.path(text));
          return new Parsed(p, text);
        }
      case PRESETS:
        {
          java.util.List<String> names = Values.presets(text);
          return new Parsed(names, String.join(":", names));
        }
      case VRAM_PROBE:
        {
          String spec = Values.vramProbe(text);
          return new Parsed(spec, spec);
        }
      case RAM_PROBE:
        {
          String spec = Values.ramProbe(text);
          return new Parsed(spec, spec);
        }
      case LOG:
        {
          LogLevel l = LogLevel.valueOf(Values.choice(text, "warn", "info", "debug"));
          return new Parsed(l, l.label());
        }
      case PROBE_INTERVAL:
        {
          java.time.Duration d = Values.duration(text);
          return new Parsed(d, Values.format(d));
        }
      case JOB:
        return new Parsed(text, text);
      case RECORD_MAXSIZE:
        {
          long bytes;
          try {
            bytes = org.flodl.budget.policy.Sizes.parse(text);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("expected " + expected);
          }
          return new Parsed(bytes, bytes == 0 ? "0" : text.trim());
        }
      case RECORD_MAXAGE:
        {
          java.time.Duration d = Values.age(text);
          return new Parsed(d, Values.formatAge(d));
        }
      case THROTTLE:
        {
          double rate = org.flodl.budget.events.DecisionThrottle.parse(text);
          if (Double.isNaN(rate)) {
            throw new IllegalArgumentException("expected " + expected + ", like 50/s");
          }
          String canonical = Double.isInfinite(rate) ? "off" : (long) rate + "/s";
          return new Parsed(canonical, canonical);
        }
      default:
        throw new IllegalStateException("no parser for " + key());
    }
  }
}
