package org.flodl.budget.agent.gate;

/**
 * The only thing woven code calls. Each method takes the point's constant id and the value at
 * the site, asks the installed {@link GateEngine}, and returns what the woven code applies: the
 * value to pass on (the original or its owned copy) or {@link #DECLINED}; the depth to use, of
 * the argument's own type. Nothing escapes: with no engine installed, or when the engine fails,
 * the application's own value comes back and the call runs as written.
 */
public final class Gate {
  /** What {@link #admit} returns when the cache must not retain the value: skip the call. */
  public static final Object DECLINED = new Object();

  private static volatile GateEngine engine;

  private Gate() {}

  /** Installs the engine the woven code reaches (null uninstalls: every site passes through). */
  public static void install(GateEngine newEngine) {
    engine = newEngine;
  }

  /** Returns the installed engine, or null. */
  public static GateEngine engine() {
    return engine;
  }

  /** Returns the value the cache should retain at point {@code site}, or {@link #DECLINED}. */
  public static Object admit(int site, Object value) {
    GateEngine e = engine;
    if (e == null) {
      return value;
    }
    try {
      return e.admit(site, value);
    } catch (Throwable t) {
      e.failed(site, t);
      return value;
    }
  }

  /** Returns the depth point {@code site} should use instead of {@code requested}. */
  public static int depth(int site, int requested) {
    GateEngine e = engine;
    if (e == null) {
      return requested;
    }
    try {
      return e.depth(site, requested);
    } catch (Throwable t) {
      e.failed(site, t);
      return requested;
    }
  }

  /**
   * Releases what the return value or the arguments of release point {@code site} retained (the
   * woven code has the returned value on its stack first, hence the order).
   */
  public static void release(Object returned, int site, Object[] arguments) {
    GateEngine e = engine;
    if (e == null) {
      return;
    }
    try {
      e.release(site, arguments, returned);
    } catch (Throwable t) {
      e.failed(site, t);
    }
  }

  /** Prices a batch that passed batch point {@code site}. */
  public static void batch(int site, Object batch) {
    GateEngine e = engine;
    if (e == null) {
      return;
    }
    try {
      e.batch(site, batch);
    } catch (Throwable t) {
      e.failed(site, t);
    }
  }
}
