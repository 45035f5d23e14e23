package org.flodl.budget.agent.weave;

/** Returns nothing; told the outcome of each point the weaver tried, so none fails silently. */
public interface WeaveListener {
  /** The point's method in {@code className} now carries its gate call. */
  void woven(String className, WeavePoint point);

  /** The point could not be woven; the class loads without it. {@code reason} is one line. */
  void failed(String className, WeavePoint point, String reason);
}
