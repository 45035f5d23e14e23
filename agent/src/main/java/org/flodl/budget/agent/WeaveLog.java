package org.flodl.budget.agent;

import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.weave.WeaveListener;
import org.flodl.budget.events.InstrumentedEvent;

/**
 * Reports each weave outcome: one line (info when woven, a warning when not) and an event; the
 * engine starts (probe thread, periodic events) at the first class woven for a site (a library's
 * own hook, {@link SiteBinding#HOOK}, is said at info level alone and starts nothing).
 */
final class WeaveLog implements WeaveListener {
  private final GateEngine engine;

  WeaveLog(GateEngine engine) {
    this.engine = engine;
  }

  @Override
  public void woven(String className, String loader, String site, String what) {
    if (site.startsWith(SiteBinding.HOOK)) {
      // A library's own hook (Arrow's allocator close): no site, nothing to decide, record or
      // start.
      Log.info("wove " + site + " into " + className + ": " + what);
      return;
    }
    Log.info("wove site '" + site + "' into " + className + ": " + what);
    if (Recorder.on()) {
      InstrumentedEvent.emit(className, loader, site, "WOVEN", what);
    }
    engine.start();
  }

  @Override
  public void failed(String className, String loader, String site, String reason, boolean skipped) {
    if (skipped) {
      Log.warn(
          "preset site '"
              + site
              + "': "
              + className
              + " is a version the preset does "
              + "not recognise ("
              + reason
              + "); that part is not budgeted");
    } else {
      Log.warn("site '" + site + "': not woven into " + className + ": " + reason);
    }
    if (Recorder.on()) {
      InstrumentedEvent.emit(className, loader, site, skipped ? "SKIPPED" : "FAILED", reason);
    }
  }
}
