package org.flodl.budget.agent.gate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import org.flodl.budget.agent.config.DeclineAnswer;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Text;
import org.flodl.budget.agent.library.Log;
import org.flodl.budget.agent.library.Types;
import org.flodl.budget.events.InstrumentedEvent;

/**
 * A site's {@code decline} call: the method that evicts a key, called on the receiver of the call
 * that was declined ({@code cache.invalidate(key)}), through reflection from inside the gate (so
 * the woven code it reaches passes through). The method is found once per receiver class, by the
 * declared type's name among that class's supertypes. A map passed where the method takes a
 * collection passes its keys ({@code putAll(map)} declined: {@code removeAll(map.keySet())}).
 *
 * <p>Where the receiver is not of the declared type, the method is called on the receiver's view of
 * that type: the one public method without parameters that returns it (an async cache's {@code
 * asMap()}, for {@code java.util.concurrent.ConcurrentMap#remove}), or failing that a subtype. An
 * argument {@code return} ({@code decline_args}) is the value the call returned ({@code remove(key,
 * value)} removes only that value).
 *
 * <p>A declined call answers as if its value had been stored and evicted at once: what the call
 * returns comes from the decline call ({@link DeclineAnswer}), and what the decline call's method
 * throws (the library's own checks on the same arguments and the cache's state: a null key, a
 * closed cache) is thrown to the application as {@link Threw}'s cause. Where the library refuses
 * nulls, a declined call with a null key or value throws {@code NullPointerException} first, as the
 * library would.
 */
public final class Decline {
  private final MethodRef method;
  private final DeclineAnswer answer;
  private final boolean refusesNulls;
  private final int[] returnAt;
  private final ClassValue<Target> targets =
      new ClassValue<>() {
        @Override
        protected Target computeValue(Class<?> c) {
          return find(c);
        }
      };

  /** The decline method, and the view of the receiver it is called on (null: the receiver). */
  private record Target(Method view, Method method) {}

  /** What the decline call's method threw: the library's answer to the call, its cause. */
  public static final class Threw extends Exception {
    private static final long serialVersionUID = 1L;

    /** Returns the wrapper of what the library threw. */
    public Threw(Throwable cause) {
      super(null, cause, false, false);
    }
  }

  /**
   * Returns the decline call {@code method}, whose result {@code answer} makes the declined call's;
   * {@code refusesNulls}: the library refuses null keys and values; {@code args}: the call's
   * arguments it is passed, {@code -1} the value returned (null: none of that).
   */
  public Decline(MethodRef method, DeclineAnswer answer, boolean refusesNulls, List<Integer> args) {
    this.method = method;
    this.answer = answer == null ? DeclineAnswer.EVICTED : answer;
    this.refusesNulls = refusesNulls;
    this.returnAt =
        args == null
            ? new int[0]
            : java.util.stream.IntStream.range(0, args.size())
                .filter(i -> args.get(i) < 0)
                .toArray();
  }

  /** Returns {@code args} with the value returned, {@code returned}, where the site passes it. */
  Object[] withReturned(Object[] args, Object returned) {
    if (returnAt.length == 0 || args == null) {
      return args;
    }
    Object[] out = args.clone();
    for (int i : returnAt) {
      if (i < out.length) {
        out[i] = returned;
      }
    }
    return out;
  }

  /** Returns what the declined call returns from the decline call's result. */
  DeclineAnswer answer() {
    return answer;
  }

  /**
   * Returns the {@code NullPointerException} the library would throw where it refuses nulls and
   * {@code args} (the declined call's, or a map among them) hold one; else null.
   */
  NullPointerException nullRefused(Object[] args) {
    if (!refusesNulls || args == null) {
      return null;
    }
    for (Object a : args) {
      if (a == null) {
        return new NullPointerException("a null key or value, which the cache refuses");
      }
      if (a instanceof Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (e.getKey() == null || e.getValue() == null) {
            return new NullPointerException(
                "a null key or value in the map, which the cache refuses");
          }
        }
      }
    }
    return null;
  }

  /**
   * Calls the decline method on {@code receiver} for a value of {@code site}; what it evicted is
   * released. {@code answering} (a call that was skipped): returns what that call answers ({@link
   * DeclineAnswer}), and what the library threw (its checks of the same arguments, a null where it
   * refuses nulls) is thrown as {@link Threw}'s cause; else (a returned value evicted) a failure is
   * said.
   */
  Object decline(
      Holdings holdings, CacheSite site, Object receiver, Object[] args, boolean answering)
      throws Threw {
    GateThread t = GateThread.current();
    if (t.inGate) {
      return null;
    }
    t.inGate = true;
    try {
      NullPointerException refused = answering ? nullRefused(args) : null;
      if (refused != null) {
        throw new Threw(refused); // a null the library refuses: thrown as it would
      }
      Object r = call(receiver, args);
      switch (answer) {
        case PRESENT:
          return r; // still cached: nothing let go
        case ABSENT:
          return r instanceof Boolean present ? !present : null;
        default:
          if (r != null) {
            holdings.release(r, t); // remove(key) returns the value it let go
          }
          return answer == DeclineAnswer.EVICTED ? r : null;
      }
    } catch (Threw e) {
      if (answering) {
        throw e;
      }
      failed(site, receiver, e.getCause());
    } catch (Throwable e) {
      failed(site, receiver, e);
    } finally {
      t.inGate = false;
    }
    return null;
  }

  private void failed(CacheSite site, Object receiver, Throwable e) {
    String msg =
        "site '"
            + site.name()
            + "': the decline call "
            + method
            + " failed ("
            + Text.clip(String.valueOf(e), 160)
            + "); declined values stay cached";
    if (Log.warnOnceSaid("decline-" + site.name(), msg) && Recorder.on()) {
      InstrumentedEvent.emit(
          receiver.getClass().getName(),
          Loaders.name(receiver.getClass().getClassLoader()),
          site.name(),
          "DECLINE_FAILED",
          msg);
    }
  }

  /** Returns the method as the site names it. */
  MethodRef method() {
    return method;
  }

  /**
   * Calls the decline method on {@code receiver} with {@code args}; returns what it returned.
   *
   * @throws IllegalStateException when the receiver has no such method
   * @throws Threw what the method itself threw, as its cause
   * @throws ReflectiveOperationException when the method cannot be called
   */
  Object call(Object receiver, Object[] args) throws Threw, ReflectiveOperationException {
    Target target = targets.get(receiver.getClass());
    if (target == null) {
      throw new IllegalStateException(receiver.getClass().getName() + " has no method " + method);
    }
    Method m = target.method();
    Object on;
    try {
      on = target.view() == null ? receiver : target.view().invoke(receiver);
    } catch (InvocationTargetException e) {
      throw new Threw(e.getCause());
    }
    Class<?>[] p = m.getParameterTypes();
    Object[] passed = args;
    for (int i = 0; args != null && i < args.length && i < p.length; i++) {
      if (args[i] instanceof Map<?, ?> map && !p[i].isInstance(map)) {
        if (passed == args) {
          passed = args.clone();
        }
        passed[i] = map.keySet(); // putAll(map) declined: its keys evicted
      }
    }
    try {
      return m.invoke(on, passed);
    } catch (InvocationTargetException e) {
      throw new Threw(e.getCause());
    }
  }

  private Target find(Class<?> c) {
    Class<?> type = Types.supertypeNamed(c, method.className());
    if (type != null) {
      Method m = declared(type);
      return m == null ? null : new Target(null, m);
    }
    Method view = view(c, true);
    if (view == null) {
      view = view(c, false);
    }
    if (view == null) {
      return null;
    }
    Method m = declared(Types.supertypeNamed(view.getReturnType(), method.className()));
    return m == null ? null : new Target(accessible(view), m);
  }

  /**
   * Returns the one public method without parameters of {@code c} that returns the declared type
   * ({@code exactly}) or a subtype of it, or null where there is none, or more than one: which of
   * them evicts is not the agent's guess.
   */
  private Method view(Class<?> c, boolean exactly) {
    Method view = null;
    for (Method v : c.getMethods()) {
      Class<?> r = v.getReturnType();
      if (v.getParameterCount() == 0
          && !v.isBridge()
          && (exactly
              ? r.getName().equals(method.className())
              : Types.supertypeNamed(r, method.className()) != null)) {
        if (view != null && !view.getName().equals(v.getName())) {
          return null;
        }
        view = v;
      }
    }
    return view;
  }

  /** Returns the method named, as {@code type} (a public one first) or a superclass declares it. */
  private Method declared(Class<?> type) {
    for (Method m : type.getMethods()) {
      if (matches(m)) {
        return accessible(m);
      }
    }
    for (Class<?> k = type; k != null; k = k.getSuperclass()) {
      for (Method m : k.getDeclaredMethods()) {
        if (matches(m)) {
          return accessible(m);
        }
      }
    }
    return null;
  }

  private boolean matches(Method m) {
    if (!m.getName().equals(method.methodName())) {
      return false;
    }
    List<String> wanted = method.parameterTypes();
    if (wanted == null) {
      return true;
    }
    Class<?>[] p = m.getParameterTypes();
    if (p.length != wanted.size()) {
      return false;
    }
    for (int i = 0; i < p.length; i++) {
      String w = wanted.get(i);
      if (!p[i].getTypeName().equals(w)
          && !p[i].getName().equals(w)
          && !p[i].getSimpleName().equals(w)) {
        return false;
      }
    }
    return true;
  }

  private static Method accessible(Method m) {
    try {
      m.setAccessible(true);
    } catch (RuntimeException e) {
      // a public method of a public type needs nothing more; a closed module refuses: try as is
    }
    return m;
  }

  /**
   * Returns whether class {@code c} is the type named {@code name} ({@link Class#getTypeName}'s
   * spelling) or a subtype of it; {@code boolean} is its box (the one primitive a declined call
   * answers with: the woven code gives others their default).
   */
  static boolean isA(Class<?> c, String name) {
    return name.equals("boolean")
        ? c == Boolean.class
        : c.getTypeName().equals(name) || Types.supertypeNamed(c, name) != null;
  }
}
