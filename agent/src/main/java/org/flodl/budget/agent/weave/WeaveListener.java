package org.flodl.budget.agent.weave;

/** Told the outcome of each class the weaver tried for a site, so none fails silently. */
public interface WeaveListener {
  /** {@code className} (defined by {@code loader}) now carries the site's gate calls. */
  void woven(String className, String loader, String site, String what);

  /**
   * {@code className} loads without the site's point: {@code reason} is one line; {@code skipped}
   * when a preset met a library version it does not recognise.
   */
  void failed(String className, String loader, String site, String reason, boolean skipped);
}
