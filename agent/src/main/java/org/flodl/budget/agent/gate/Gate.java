package org.flodl.budget.agent.gate;

/**
 * The only thing woven code calls. Each method takes the point's constant id and what the site
 * sees, asks the installed {@link GateEngine}, and returns what the woven code applies: the value
 * to pass on (the original or its owned copy) or {@link #DECLINED}; whether a returned value was
 * declined; the depth to use. Nothing escapes: with no engine installed, or when the engine fails,
 * the application's own value comes back and the call runs as written.
 *
 * <p>Body points ({@code admit}, {@code enter}, {@code leave}, {@code returned}, {@code decline},
 * {@code depth}, {@code release}, {@code batch}, {@code hook}) are woven into a method of the
 * site's type; call points ({@code ...Call}) around a call to it.
 */
public final class Gate {
  /** What {@link #admit} returns when the cache must not retain the value: skip the call. */
  public static final Object DECLINED = new Object();

  private static volatile Decisions engine;

  private Gate() {}

  /** Installs the engine the woven code reaches (null uninstalls: every site passes through). */
  public static void install(Decisions newEngine) {
    engine = newEngine;
  }

  /** Returns whether {@code e} is the engine the woven code reaches now. */
  static boolean isInstalled(Decisions e) {
    return e != null && engine == e;
  }

  // ------------------------------------------------------------------------------ bodies

  /**
   * Returns the value the cache should retain at body point {@code point} entered on {@code
   * receiver}, or {@link #DECLINED}; any other answer counts the body as entered (see {@link
   * #leave}).
   */
  public static Object admit(int point, Object receiver, Object value) {
    Decisions e = engine;
    if (e == null) {
      return value;
    }
    try {
      return e.admit(point, receiver, value);
    } catch (Throwable t) {
      e.failed(point, t);
      return value;
    }
  }

  /**
   * {@link #admit}, with the entry's {@code key}: where the cache keeps a copy of what it is handed
   * (a JCache cache that stores by value), the charge is held by the entry, until the cache lets it
   * go.
   */
  public static Object admitEntry(int point, Object receiver, Object key, Object value) {
    Decisions e = engine;
    if (e == null) {
      return value;
    }
    try {
      return e.admitEntry(point, receiver, key, value);
    } catch (Throwable t) {
      e.failed(point, t);
      return value;
    }
  }

  /** Counts a woven body of a returned-value point entered. */
  public static void enter(int point) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.enter(point);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /** Counts a woven body left at a return. */
  public static void leave(int point) {
    left(point, false);
  }

  /**
   * Counts a woven body left by an exception (its handler): what it admitted at entry comes back.
   */
  public static void threw(int point) {
    left(point, true);
  }

  private static void left(int point, boolean threw) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.leave(point, threw);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /** Returns whether {@code value}, returned at body point {@code point}, was declined. */
  public static boolean returned(Object value, int point, Object receiver) {
    Decisions e = engine;
    if (e == null) {
      return false;
    }
    try {
      return e.returned(point, receiver, value);
    } catch (Throwable t) {
      e.failed(point, t);
      return false;
    }
  }

  /**
   * Calls the site's decline method on {@code receiver} with {@code args}: a returned value evicted
   * (the call has answered already).
   */
  public static void decline(int point, Object receiver, Object[] args) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.decline(point, receiver, args, false);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /**
   * Calls the site's decline method for a call that was skipped, and returns that call's answer (as
   * if its value had been stored and evicted at once): an instance of {@code returns} (the woven
   * method's return type, as {@link Class#getTypeName} spells it) or null. What the library threw,
   * checking the same arguments, is thrown as it is: the call's own exception.
   */
  public static Object declined(int point, Object receiver, Object[] args, String returns) {
    Decisions e = engine;
    if (e == null) {
      return null;
    }
    Object answer;
    try {
      answer = e.decline(point, receiver, args, true);
    } catch (Decline.Threw x) {
      throw Gate.<RuntimeException>rethrow(x.getCause());
    } catch (Throwable t) {
      e.failed(point, t);
      return null;
    }
    return answer != null && Decline.isA(answer.getClass(), returns) ? answer : null;
  }

  /** Returns a declined boolean call's answer: false unless {@code answer} is true. */
  public static boolean asBoolean(Object answer) {
    return answer instanceof Boolean b && b;
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> RuntimeException rethrow(Throwable t) throws T {
    throw (T) t; // the library's own exception, checked or not, as its method threw it
  }

  /** Returns the depth body point {@code point} should use instead of {@code requested}. */
  public static int depth(int point, int requested) {
    Decisions e = engine;
    if (e == null) {
      return requested;
    }
    try {
      return e.depth(point, requested, null);
    } catch (Throwable t) {
      e.failed(point, t);
      return requested;
    }
  }

  /** {@link #depth(int, int)} for a framework adapter, which reads the call's arguments. */
  public static int depth(int point, int requested, Object[] arguments) {
    Decisions e = engine;
    if (e == null) {
      return requested;
    }
    try {
      return e.depth(point, requested, arguments);
    } catch (Throwable t) {
      e.failed(point, t);
      return requested;
    }
  }

  /**
   * Returns the executor to construct with: null when the depth is 0 and the request was not (a
   * depth of 0 is applied by running without the executor, never as a prefetch of 0).
   */
  public static Object executor(Object executor, int requested, int depth) {
    return depth == 0 && requested != 0 ? null : executor;
  }

  /** Returns the prefetch number to construct with: the request when the executor was dropped. */
  public static int prefetch(int requested, int depth) {
    return depth == 0 && requested != 0 ? requested : depth;
  }

  /**
   * Releases what the return value or the arguments of release point {@code point} retained (the
   * woven code has the returned value on its stack first, hence the order).
   */
  public static void release(Object returned, int point, Object[] arguments) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.release(point, arguments, returned);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /** Prices a batch that body point {@code point} returned on {@code receiver}. */
  public static void batch(Object batch, int point, Object receiver) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.batch(point, receiver, batch);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /** Runs the adapter of hook point {@code point} on {@code receiver} (a method's entry). */
  public static void hook(int point, Object receiver) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.hook(point, receiver);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  /** Runs the hook of point {@code point} on {@code receiver} with the call's {@code arguments}. */
  public static void hook(int point, Object receiver, Object[] arguments) {
    Decisions e = engine;
    if (e != null) {
      try {
        e.hook(point, receiver, arguments);
      } catch (Throwable t) {
        e.failed(point, t);
      }
    }
  }

  // ------------------------------------------------------------------------------ calls

  /** Returns the value a call at call point {@code point} should pass on, or {@link #DECLINED}. */
  public static Object admitCall(Object value, int point) {
    Decisions e = engine;
    if (e == null) {
      return value;
    }
    try {
      return e.admitCall(point, value);
    } catch (Throwable t) {
      e.failed(point, t);
      return value;
    }
  }

  /**
   * Returns whether {@code value}, returned by a call at call point {@code point}, was declined.
   */
  public static boolean returnedCall(Object value, int point) {
    Decisions e = engine;
    if (e == null) {
      return false;
    }
    try {
      return e.returnedCall(point, value);
    } catch (Throwable t) {
      e.failed(point, t);
      return false;
    }
  }

  /** Calls the site's decline method on the call's {@code receiver} with {@code args}. */
  public static void declineCall(Object receiver, Object[] args, int point) {
    decline(point, receiver, args);
  }

  /** {@link #declined} for a call at call point {@code point} that was skipped. */
  public static Object declinedCall(Object receiver, Object[] args, int point, String returns) {
    return declined(point, receiver, args, returns);
  }

  /**
   * Returns the depth a call at call point {@code point} should pass instead of {@code requested}.
   */
  public static int depthCall(int requested, int point) {
    return depth(point, requested);
  }

  /** Releases what a call at release point {@code point} returned or was passed. */
  public static void releaseCall(Object returned, Object[] arguments, int point) {
    release(returned, point, arguments);
  }

  /** Prices a batch a call at batch point {@code point} returned. */
  public static void batchCall(Object batch, int point) {
    batch(batch, point, null);
  }
}
