package org.flodl.budget.events;

import java.util.Locale;
import java.util.Set;
import jdk.jfr.SettingControl;

/**
 * The {@code throttle} setting of a per-decision event ({@link CacheAdmissionEvent}, {@link
 * ReleaseEvent}): how many of its events a second each site may commit for each decision kind (or
 * release cause), {@code N/s}, or {@code off} for every one. Flight Recorder applies the setting of
 * the recordings that run (the highest rate of them, or {@code off} when one says so); the agent
 * reads the rate in force from its {@link Rate} and samples its decisions to it, each event
 * carrying how many decisions it stands for. The setting itself never drops an event: the agent
 * commits only the ones it sampled.
 */
public abstract class DecisionThrottle extends SettingControl {
  /** The value where no recording sets one: 50 events a second per site and kind. */
  public static final String DEFAULT = "50/s";

  /** The value that records every decision. */
  public static final String OFF = "off";

  /**
   * Where an event type's throttle in force is published for the agent to read: one per type, held
   * by the type's {@code Throttle} class. Read it there, not through the event class: on JDK 17
   * initializing an event class starts Flight Recorder's metadata (hundreds of classes, about 100
   * ms), which a JVM that records nothing must not pay.
   */
  public static final class Rate {
    private volatile double perSecond = parse(DEFAULT);
    private volatile String text = DEFAULT;

    /** Returns the events a second in force ({@code Double.POSITIVE_INFINITY}: every one). */
    public double perSecond() {
      return perSecond;
    }

    /** Returns the setting in force as the recordings spell it. */
    public String text() {
      return text;
    }
  }

  private final Rate rate;
  private String value = DEFAULT;

  /** Returns a control that publishes the setting in force to {@code rate}, its event's. */
  DecisionThrottle(Rate rate) {
    this.rate = rate;
  }

  @Override
  public String combine(Set<String> values) {
    double best = -1;
    String chosen = null;
    for (String v : values) {
      double r = parse(v);
      if (!Double.isNaN(r) && r > best) {
        best = r;
        chosen = v;
      }
    }
    return chosen == null ? DEFAULT : chosen;
  }

  @Override
  public void setValue(String newValue) {
    double r = parse(newValue);
    if (Double.isNaN(r)) {
      r = parse(DEFAULT); // a value Flight Recorder let through that we cannot read
      newValue = DEFAULT;
    }
    value = newValue.trim();
    rate.text = value;
    rate.perSecond = r;
  }

  @Override
  public String getValue() {
    return value;
  }

  /**
   * Returns the events a second that {@code text} allows ({@code Double.POSITIVE_INFINITY} for
   * {@code off}), or NaN when it is not a throttle value: {@code N/s} with N a whole number from 0
   * (none but each period's one event per kind for the decisions not yet stood for), or {@code
   * off}.
   */
  public static double parse(String text) {
    if (text == null) {
      return Double.NaN;
    }
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.equals(OFF)) {
      return Double.POSITIVE_INFINITY;
    }
    int slash = t.indexOf('/');
    if (slash <= 0 || slash > 12) {
      return Double.NaN;
    }
    String n = t.substring(0, slash).trim();
    for (int i = 0; i < n.length(); i++) {
      if (n.charAt(i) < '0' || n.charAt(i) > '9') {
        return Double.NaN;
      }
    }
    if (n.isEmpty()) {
      return Double.NaN;
    }
    if (n.length() > 9 || !t.substring(slash + 1).trim().equals("s")) {
      return Double.NaN;
    }
    return Long.parseLong(n);
  }
}
