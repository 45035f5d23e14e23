package org.flodl.budget.agent.gate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.flodl.budget.agent.library.ArgumentAdapter;
import org.flodl.budget.agent.library.DepthAdapter;
import org.flodl.budget.agent.library.EntryHook;

/**
 * The sites points are bound at, by name in binding order, and the point each binding makes: a
 * cache-admit site is made at its first point, a prefetch-depth site at its depth (its batches are
 * bound after it). The engine numbers the points in a table of its own, which every decision reads.
 * Thread-safe: the sites are guarded by this registry's monitor.
 */
final class PointRegistry {
  private final Map<String, CacheSite> cacheSites = new LinkedHashMap<>();
  private final Map<String, DepthSite> depthSites = new LinkedHashMap<>();
  private final Set<String> keepsViews = new HashSet<>(); // sites with views = keep
  private final Budgets budgets;

  PointRegistry(Budgets budgets) {
    this.budgets = budgets;
  }

  /** Returns an admission at cache-admit site {@code site} (see {@link GateEngine#bindAdmit}). */
  synchronized Point admit(
      String site, boolean returned, boolean call, Decline decline, ArgumentAdapter wraps) {
    return new Point.Admit(
        cacheSite(site), returned, call, null, decline, wraps, !keepsViews.contains(site));
  }

  /** Makes cache-admit site {@code site}'s points bound from now keep its views uncopied. */
  synchronized void keepViews(String site) {
    keepsViews.add(site);
  }

  /** Returns a release point of cache-admit site {@code site}. */
  synchronized Point release(String site) {
    return new Point.Release(cacheSite(site));
  }

  /** Returns {@code hook}, an adapter's code for cache-admit site {@code site}, as a point. */
  synchronized Point hook(String site, EntryHook hook) {
    return new Point.Hook(site == null ? null : cacheSite(site), hook);
  }

  /** Returns prefetch-depth site {@code site}'s depth, the site made at its first. */
  synchronized Point depth(
      String site,
      String device,
      int deviceIndex,
      long batchBytes,
      long activationReserve,
      boolean callSite,
      DepthAdapter adapter) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      s =
          new DepthSite(
              site, device, deviceIndex, batchBytes, activationReserve, callSite, adapter);
      depthSites.put(site, s);
      if (s.cuda()) {
        budgets.expectDevice(); // VRAM read with every refresh, the first included
      }
    }
    return new Point.Depth(s);
  }

  /** Returns a batch point of prefetch-depth site {@code site}, whose depth is bound. */
  synchronized Point batch(String site) {
    DepthSite s = depthSites.get(site);
    if (s == null) {
      throw new IllegalStateException("bind the depth of " + site + " before its batches");
    }
    return new Point.Batch(s);
  }

  /**
   * Returns a point like {@code base} that decides only for receivers that are instances of {@code
   * receiverType}; a release, a depth or a batch decides the same for any receiver.
   */
  static Point forReceivers(Point base, String receiverType) {
    if (base instanceof Point.Admit a) {
      return new Point.Admit(
          a.site(),
          a.returned(),
          a.call(),
          new Point.Receivers(receiverType.replace('/', '.')),
          a.decline(),
          a.wraps(),
          a.copies());
    }
    return base;
  }

  /** Returns the name of the site point {@code p} is bound at, or {@code #id} when none. */
  static String siteName(Point p, int id) {
    return p instanceof Point.Admit a
        ? a.site().name()
        : p instanceof Point.Release r
            ? r.site().name()
            : p instanceof Point.Depth d
                ? d.site().name()
                : p instanceof Point.Batch b
                    ? b.site().name()
                    : p instanceof Point.Hook h
                        ? h.site() == null ? h.hook().method() : h.site().name()
                        : "#" + id;
  }

  /** Returns the names of the cache-admit sites or of the prefetch-depth sites. */
  synchronized List<String> names(boolean cache) {
    return new ArrayList<>(cache ? cacheSites.keySet() : depthSites.keySet());
  }

  /** Returns cache-admit site {@code name}, or null. */
  synchronized CacheSite cacheSiteOrNull(String name) {
    return cacheSites.get(name);
  }

  /** Returns the cache-admit sites. */
  synchronized List<CacheSite> cacheSites() {
    return new ArrayList<>(cacheSites.values());
  }

  /**
   * Returns the decisions every cache-admit site has taken from its start to now (this rank's
   * consumption, for {@code host_share=auto}).
   */
  long cacheDecisions() {
    long n = 0;
    for (CacheSite s : cacheSites()) {
      n += s.decisions();
    }
    return n;
  }

  private CacheSite cacheSite(String site) {
    CacheSite s = cacheSites.get(site);
    if (s == null) {
      s = new CacheSite(site, cacheSites.size());
      cacheSites.put(site, s);
    }
    return s;
  }
}
