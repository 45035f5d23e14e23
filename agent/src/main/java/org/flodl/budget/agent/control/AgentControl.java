package org.flodl.budget.agent.control;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.management.ObjectName;
import org.flodl.budget.agent.config.AgentConfig;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Option;
import org.flodl.budget.agent.config.Setting;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.agent.library.Knob;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.ConfigurationEvent;
import org.flodl.budget.policy.Tier;

/**
 * Live control of a running agent through the platform MBean server: reads and changes the mode and
 * the knobs of the {@link GateEngine}, keeps the effective configuration (changed settings get the
 * source {@code RUNTIME}) and records each change as a {@code Configuration} event. A refused value
 * is an {@link IllegalArgumentException} to the JMX client, never a change.
 */
public final class AgentControl implements AgentControlMXBean {
  /** The MBean's name. */
  public static final String OBJECT_NAME = "org.flodl.budget:type=Agent";

  private final GateEngine engine;
  private volatile AgentConfig config;

  /** Returns the control of {@code engine}, started with {@code config}. */
  public AgentControl(GateEngine engine, AgentConfig config) {
    this.engine = engine;
    this.config = config;
  }

  /**
   * Registers the MBean, one per site ({@link SiteControl}) and one per tier ({@link TierControl});
   * a failure is one line and the agent runs on without it.
   */
  public void register() {
    try {
      javax.management.MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      for (boolean cache : new boolean[] {true, false}) {
        for (String site : engine.siteNames(cache)) {
          ObjectName name = SiteControl.name(site);
          if (!server.isRegistered(name)) {
            server.registerMBean(new SiteControl(engine, site, cache), name);
          }
        }
      }
      for (Tier tier : Tier.values()) {
        ObjectName name = TierControl.name(tier);
        if (!server.isRegistered(name)) {
          server.registerMBean(new TierControl(engine, tier), name);
        }
      }
      server.registerMBean(this, new ObjectName(OBJECT_NAME));
    } catch (Throwable t) {
      Log.warn("the " + OBJECT_NAME + " MBean could not be registered (" + t + ")");
    }
  }

  /** Returns the effective settings, live changes included. */
  public synchronized List<Setting> settings() {
    return new ArrayList<>(config.settings().values());
  }

  @Override
  public String getMode() {
    return engine.mode().label();
  }

  @Override
  public void setMode(String mode) {
    String m = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
    Mode next = m.equals("enforce") ? Mode.ENFORCE : m.equals("observe") ? Mode.OBSERVE : null;
    if (next == null) {
      throw new IllegalArgumentException(
          "mode '" + mode + "': expected enforce or observe (off needs a restart)");
    }
    engine.mode(next);
    synchronized (this) {
      config = config.withMode(next);
    }
    changed(Option.MODE.key(), m); // no lock held while the recorder is called
  }

  @Override
  public double getRamMaxUsage() {
    return engine.knob(Knob.RAM_MAX_USAGE);
  }

  @Override
  public void setRamMaxUsage(double value) {
    setKnob(Option.RAM_MAX_USAGE.key(), value, Knob.RAM_MAX_USAGE);
  }

  @Override
  public double getHeapMaxUsage() {
    return engine.knob(Knob.HEAP_MAX_USAGE);
  }

  @Override
  public void setHeapMaxUsage(double value) {
    setKnob(Option.HEAP_MAX_USAGE.key(), value, Knob.HEAP_MAX_USAGE);
  }

  @Override
  public double getVramMaxUsage() {
    return engine.knob(Knob.VRAM_MAX_USAGE);
  }

  @Override
  public void setVramMaxUsage(double value) {
    setKnob(Option.VRAM_MAX_USAGE.key(), value, Knob.VRAM_MAX_USAGE);
  }

  private void setKnob(String key, double value, Knob knob) {
    synchronized (this) {
      config = config.withKnob(key, value); // refuses a bad value with IllegalArgumentException
    }
    engine.knob(knob, value); // re-budgets and records, with no lock of ours held
    changed(key, Double.toString(value));
  }

  private void changed(String key, String value) {
    if (Recorder.on()) {
      ConfigurationEvent.emit(key, value, Setting.Source.RUNTIME.name());
    }
    Log.info("live change: " + key + "=" + value);
  }

  @Override
  public Map<String, Long> getHeldBytes() {
    return byLabel(engine.held());
  }

  @Override
  public Map<String, Long> getBudgetBytes() {
    return byLabel(engine.budgets());
  }

  private static Map<String, Long> byLabel(Map<Tier, Long> m) {
    Map<String, Long> out = new LinkedHashMap<>();
    m.forEach((t, v) -> out.put(t.label(), v));
    return out;
  }
}
