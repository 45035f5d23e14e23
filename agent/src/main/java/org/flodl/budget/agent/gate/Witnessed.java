package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Library;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.library.Witnesses;
import org.flodl.budget.events.InstrumentedEvent;

/**
 * The caches a decline would harm: those whose writers or listeners ({@link Witnesses}, asked of
 * the library whose cache the receiver is) would learn less or more of a declined call than of a
 * value stored and evicted at once (a write-through writer that gets no write and a delete, a
 * write-behind listener that never sees the value). Such a cache is not declined: its calls are
 * admitted and counted as {@code WOULD_DECLINE}, and the cache is named once per site, in one line
 * and an {@code Instrumented} event with outcome {@code NOT_DECLINED}. Where the library's own size
 * bound can be moved, the budget steers it instead ({@link Steering}): the cache stays within the
 * budget by its own evictions. A cache whose witnesses cannot be read is not declined either. Asked
 * only when a decision would decline, inside the gate.
 */
final class Witnessed {
  /** The witnesses of caches of no library the agent knows: none. */
  private static final Witnesses NONE = cache -> null;

  private static final ClassValue<Witnesses> BY_CLASS =
      new ClassValue<>() {
        @Override
        protected Witnesses computeValue(Class<?> c) {
          for (Library l : Library.all()) {
            try {
              Witnesses w = l.witnesses(c);
              if (w != null) {
                return w;
              }
            } catch (RuntimeException | LinkageError e) {
              return cache -> {
                throw new IllegalStateException(l.name() + "'s support failed: " + e);
              };
            }
          }
          return NONE;
        }
      };

  /** The cache has no witness: a decline may be taken. */
  static final int NO = 0;

  /** The cache has a witness and no bound to steer: admitted unbooked, as WOULD_DECLINE. */
  static final int KEEP = 1;

  /** The cache has a witness and a bound the budget steers ({@link Steering}). */
  static final int STEER = 2;

  private Witnessed() {}

  /**
   * Returns how a decline at {@code site} on {@code receiver} (null: not seen) is to be kept from
   * it: {@link #NO} (declined), {@link #KEEP} (the cache has a witness, or its witnesses cannot be
   * read) or, where {@code full} (the tier's budget refused the value) and the cache has a bound
   * its library lets move, {@link #STEER}. Names the cache the first time.
   */
  static int keeps(CacheSite site, Object receiver, boolean full) {
    if (receiver == null) {
      return NO;
    }
    Witnesses witnesses = BY_CLASS.get(receiver.getClass());
    String who;
    String steered = null;
    try {
      who = witnesses.of(receiver);
      if (who != null && full) {
        steered = Steering.steers(witnesses.bound(receiver), receiver);
      }
    } catch (Throwable x) {
      who =
          "a "
              + receiver.getClass().getName()
              + " whose writers and listeners or bound could not be read ("
              + Text.clip(String.valueOf(x), 120)
              + ")";
    }
    if (who == null) {
      return NO;
    }
    String msg =
        "site '"
            + site.name()
            + "': "
            + who
            + (steered != null
                ? ", which a decline would mislead, so the cache is not declined: the budget"
                    + " steers its own size bound instead ("
                    + steered
                    + ")"
                : ", which a decline would mislead, so the cache is not declined and, with no"
                    + " size bound to steer, is admitted (WOULD_DECLINE): give it one");
    if (Log.warnOnceSaid("witnessed-" + site.name() + "-" + who, msg) && Recorder.on()) {
      InstrumentedEvent.emit(
          receiver.getClass().getName(),
          Loaders.name(receiver.getClass().getClassLoader()),
          site.name(),
          "NOT_DECLINED",
          msg);
    }
    return steered != null ? STEER : KEEP;
  }
}
