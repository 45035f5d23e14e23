package org.flodl.budget.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * One effective agent setting and where it came from, one event per setting, written at the start
 * and end of every chunk so each recording file carries the whole configuration. The agent
 * registers an emitter with {@link #register} that calls {@link #emit} once per setting.
 */
@Name(ConfigurationEvent.NAME)
@Label("Agent Configuration")
@Category({Categories.ROOT, Categories.AGENT})
@Description("An effective flodl-budget agent setting and its source")
@Period("everyChunk")
@StackTrace(false)
public final class ConfigurationEvent extends Event {
  /** The event's name in recordings. */
  public static final String NAME = "flodl.agent.Configuration";

  private static final PeriodicHook HOOK = new PeriodicHook(ConfigurationEvent.class);

  @Label("Key")
  @Description("The setting's key, as in the agent arguments (e.g. ram_max_usage)")
  String key;

  @Label("Value")
  @Description("The effective value")
  String value;

  @Label("Source")
  @Description(
      "Where the value came from: AGENT_ARGS, SYSTEM_PROPERTY, ENVIRONMENT, DEFAULT or RUNTIME")
  String source;

  /** Commits one setting when the event is enabled; a disabled event costs a branch. */
  public static void emit(String key, String value, String source) {
    ConfigurationEvent event = new ConfigurationEvent();
    if (event.shouldCommit()) {
      event.key = key;
      event.value = value;
      event.source = source;
      event.commit();
    }
  }

  /**
   * Returns true when {@code emitter} now runs at every chunk's start and end (replacing an earlier
   * one); it should call {@link #emit} once per setting.
   */
  public static boolean register(Runnable emitter) {
    return HOOK.register(emitter);
  }

  /** Returns true when an emitter was registered and has been removed. */
  public static boolean unregister() {
    return HOOK.unregister();
  }
}
