package org.flodl.budget.agent.gate;

import java.util.concurrent.CompletableFuture;
import org.flodl.budget.agent.config.Mode;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.events.InstrumentedEvent;

/**
 * Values that arrive later: a cache of futures (Caffeine's async caches) returns a future before
 * its value exists, and a pending future holds nothing yet. Its decision is taken when it
 * completes, on the thread that completes it (a loader's executor, or the caller where it is
 * complete by then), against the cache and with the decline call's arguments taken when the future
 * was returned; a declined one is evicted by the site's decline call ({@code remove(key, future)}
 * removes that future alone), and every caller still gets the future, completing as it would. A
 * future that fails or completes with null is left to its cache, which drops it. Nothing waits.
 */
final class Completions {
  private Completions() {}

  /**
   * Says once per site that a future not yet complete was passed as an argument (an async cache's
   * {@code put(key, future)}): it holds nothing yet and is not decided there; a returned-value
   * point that returns it later (the cache's {@code get}) decides it then.
   */
  static void passed(CacheSite site, Object receiver) {
    String msg =
        "site '"
            + site.name()
            + "': a future not yet complete was passed to the cache: it holds nothing yet, so it"
            + " is not decided there, only when a get of the cache returns it";
    if (Log.warnOnceSaid("pending-" + site.name(), msg) && Recorder.on() && receiver != null) {
      InstrumentedEvent.emit(
          receiver.getClass().getName(),
          Loaders.name(receiver.getClass().getClassLoader()),
          site.name(),
          "NOT_COVERED",
          msg);
    }
  }

  /**
   * Decides {@code future}, returned at point {@code a} on {@code receiver}, when it completes; a
   * decline then calls the site's decline with {@code args} (null: none, the decision is recorded
   * as {@code WOULD_DECLINE}).
   */
  static void decideWhenComplete(
      GateEngine e, Point.Admit a, Object receiver, Object[] args, Object future) {
    ((CompletableFuture<?>) future)
        .whenComplete((value, failure) -> completed(e, a, receiver, args, future, value));
  }

  private static void completed(
      GateEngine e, Point.Admit a, Object receiver, Object[] args, Object future, Object value) {
    if (value == null || !Gate.isInstalled(e)) {
      return; // failed or empty: the cache drops it itself
    }
    GateThread t = GateThread.current();
    if (t.inGate) {
      return; // completed by the agent's own code: nothing of the application's to decide
    }
    try {
      if (e.holdings.holds(future)) {
        return; // decided already (returned again before it completed)
      }
      boolean evict = args != null && a.decline() != null;
      Object r = Admission.admission(e, t, a.site(), receiver, null, future, false, evict);
      if (r == Gate.DECLINED && evict && e.mode() == Mode.ENFORCE) {
        a.decline()
            .decline(e.holdings, a.site(), receiver, a.decline().withReturned(args, future), false);
      }
    } catch (Throwable x) {
      Log.warnOnce(
          "completion-" + a.site().name(),
          "site '"
              + a.site().name()
              + "': deciding a completed future failed ("
              + Text.clip(String.valueOf(x), 160)
              + "); such values stay cached, undecided");
    }
  }
}
