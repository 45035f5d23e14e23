package org.flodl.budget.agent.gate;

import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.Log;

/**
 * The points whose argument a library's {@link ArgumentAdapter} wraps (a JCache entry processor):
 * the argument is not priced; each value it stores is decided as a cache-admit decision on the
 * cache the call was made on, when it is stored, on the thread that stores it. A wrapper that
 * cannot be made leaves the argument as it is, said once.
 */
final class Wrapped {
  private Wrapped() {}

  /** Returns what the call at point {@code a} on {@code cache} should pass for {@code argument}. */
  static Object wrap(GateEngine e, Point.Admit a, Object cache, Object argument) {
    GateThread t = GateThread.current();
    t.inGate = true;
    try {
      return a.wraps().wrap(cache, argument, (key, value) -> decide(e, a, cache, key, value));
    } catch (RuntimeException | LinkageError x) {
      Log.warnOnce(
          "wrap-" + a.site().name(),
          "site '"
              + a.site().name()
              + "': wrapping a "
              + argument.getClass().getName()
              + " failed ("
              + Text.clip(String.valueOf(x), 120)
              + "); what it stores is not budgeted");
      return argument;
    } finally {
      t.inGate = false;
    }
  }

  /**
   * Returns the value to store, or null where {@code value}, stored into {@code cache} under {@code
   * key}, is not.
   */
  private static Object decide(
      GateEngine e, Point.Admit a, Object cache, Object key, Object value) {
    GateThread t = GateThread.current();
    if (t.inGate || value == null || !Gate.isInstalled(e)) {
      return value;
    }
    Object r = Admission.admission(e, t, a.site(), cache, key, value, a.copies(), true);
    return r == Gate.DECLINED ? null : r;
  }
}
