package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import org.flodl.budget.agent.config.JdkTypes;
import org.flodl.budget.agent.config.MethodRef;
import org.flodl.budget.agent.config.Scope;
import org.objectweb.asm.Opcodes;

/**
 * Decides, for each class as it loads, what the rules weave into it, from the class files alone: a
 * body rule on {@code T#m} applies to every class that is {@code T} or a subtype of it and declares
 * a body for {@code m} (a javac bridge is followed to the method it calls); a body that such a
 * class inherits from a supertype that is not itself a {@code T} gets a point of its own, deciding
 * for receivers of {@code T} only, woven when that supertype loads (or retransformed, if it has
 * loaded already). Constructors and static methods are matched in {@code T} itself. A call rule
 * applies to the classes its scope covers.
 */
final class Planner {
  private final List<Rule> bodyRules = new ArrayList<>();
  private final List<Rule> callRules = new ArrayList<>();
  private final Set<String> exactTypes = new HashSet<>();
  private final Map<String, List<Pending>> pending = new ConcurrentHashMap<>();
  private final Set<String> pendingKeys = ConcurrentHashMap.newKeySet();

  /** Per loader, which body rules' types it can see (a type it cannot see has no subtype there). */
  private final Map<ClassLoader, boolean[]> visible = new java.util.WeakHashMap<>();

  private final TypeGraph graph;
  private final PointBinder binder;
  private final BiConsumer<ClassLoader, String> retransform;

  /** A body in a supertype of a rule's type, to weave with a receiver check. */
  private record Pending(Rule rule, int point, String receiverType) {}

  /**
   * Returns a planner for {@code rules}; {@code retransform} is asked to re-weave a class that
   * loaded before a point for it was found (never from inside a transformation).
   */
  Planner(
      List<Rule> rules,
      TypeGraph graph,
      PointBinder binder,
      BiConsumer<ClassLoader, String> retransform) {
    for (Rule r : rules) {
      if (r.calls()) {
        callRules.add(r);
      } else {
        bodyRules.add(r);
        exactTypes.add(r.type());
      }
    }
    this.graph = graph;
    this.binder = binder;
    this.retransform = retransform;
  }

  /** Returns the names of every method a rule could weave a body of, for the type graph. */
  static Set<String> methodNames(List<Rule> rules) {
    Set<String> names = new HashSet<>();
    for (Rule r : rules) {
      names.add(r.method().methodName());
      if (r.scope() != null && r.scope().method() != null) {
        names.add(r.scope().method().methodName());
      }
    }
    return names;
  }

  /** Returns whether any class could need a plan (the transformer skips everything else). */
  boolean hasRules() {
    return !bodyRules.isEmpty() || !callRules.isEmpty();
  }

  /**
   * Returns whether the rules could apply to {@code c}, a class already loaded (attach): it is a
   * rule's type or one of its subtypes, a supertype a point waits for, or in a call rule's scope.
   * Only loaded classes are looked at.
   */
  boolean mayApply(Class<?> c) {
    String name = c.getName().replace('.', '/');
    if (pending.containsKey(name)) {
      return true;
    }
    for (Rule r : callRules) {
      if (r.scope().covers(name)) {
        return true;
      }
    }
    for (Rule r : bodyRules) {
      if (isA(c, r.method().className())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isA(Class<?> c, String typeName) {
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      if (k.getName().equals(typeName)) {
        return true;
      }
      for (Class<?> i : k.getInterfaces()) {
        if (isA(i, typeName)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Returns, per body rule, whether {@code loader} sees the rule's type: a JVM whose loaders cannot
   * find DJL's or Caffeine's classes pays nothing per class for those presets.
   */
  private boolean[] visibleTo(ClassLoader loader) {
    synchronized (visible) {
      boolean[] v = visible.get(loader);
      if (v != null) {
        return v;
      }
    }
    boolean[] v = new boolean[bodyRules.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = graph.info(loader, bodyRules.get(i).type()) != null;
    }
    synchronized (visible) {
      visible.put(loader, v);
    }
    return v;
  }

  /** Returns what to weave into {@code name} as {@code loader} defines it, or null for nothing. */
  Plan plan(ClassLoader loader, String name, byte[] bytes) {
    boolean[] sees = visibleTo(loader);
    boolean any = pending.containsKey(name) || exactTypes.contains(name);
    for (int i = 0; i < sees.length && !any; i++) {
      any = sees[i];
    }
    for (int i = 0; i < callRules.size() && !any; i++) {
      any = callRules.get(i).scope().covers(name);
    }
    if (!any) {
      return null; // nothing could apply: the class file is not even read
    }
    ClassInfo info = graph.define(loader, bytes);
    List<Plan.BodyInsert> body = new ArrayList<>();
    List<Plan.Failure> failures = new ArrayList<>();
    for (int i = 0; i < bodyRules.size(); i++) {
      if (sees[i] || name.equals(bodyRules.get(i).type())) {
        planBody(loader, info, bytes, bodyRules.get(i), body, failures);
      }
    }
    List<Pending> forThis = pending.get(name);
    if (forThis != null) {
      for (Pending p : forThis) {
        ClassInfo.Method m =
            MethodMatcher.declared(info, p.rule().method(), bytes, failures, p.rule(), false);
        if (m != null && m.hasBody() && !m.isStatic()) {
          body.add(new Plan.BodyInsert(p.rule(), p.point(), m, p.receiverType()));
        }
      }
    }
    List<Rule> calls = new ArrayList<>();
    for (Rule r : callRules) {
      if (r.scope().covers(name)) {
        calls.add(r);
        if (r.scope().kind() == Scope.Kind.METHOD
            && !MethodMatcher.declaresScopeMethod(info, r.scope())) {
          failures.add(
              new Plan.Failure(
                  r,
                  "no method "
                      + r.scope().method()
                      + " declared in "
                      + dotted(name)
                      + where(loader, info, r.scope().method())));
        }
      }
    }
    Plan plan = new Plan(info, onePerMethod(body, failures), calls, failures);
    return plan.isEmpty() ? null : plan;
  }

  private void planBody(
      ClassLoader loader,
      ClassInfo info,
      byte[] bytes,
      Rule r,
      List<Plan.BodyInsert> body,
      List<Plan.Failure> failures) {
    String name = info.name();
    MethodRef ref = r.method();
    boolean self = name.equals(r.type());
    if (ref.isConstructor()) {
      if (self) {
        ClassInfo.Method m = MethodMatcher.declared(info, ref, null, failures, r, true);
        if (m != null) {
          body.add(new Plan.BodyInsert(r, r.id(), m, null));
        }
      }
      return;
    }
    if (!self
        && (info.interfaces().isEmpty()
            && info.superName() != null
            && JdkTypes.isJdkInternalByPrefix(info.superName()))) {
      return; // extends a JDK class and implements nothing: no subtype of an application type
    }
    if (!graph.isSubtype(loader, name, r.type())) {
      return;
    }
    ClassInfo.Method m = MethodMatcher.declared(info, ref, bytes, failures, r, false);
    if (m != null && m.isStatic() && !self) {
      m = null; // a static method is not inherited: only T's own counts
    }
    if (m != null && m.hasBody()) {
      body.add(new Plan.BodyInsert(r, r.id(), m, null));
    } else if (m == null && self) {
      String declaredIn = declaredInSupertype(loader, name, ref);
      if (declaredIn == null) {
        failures.add(
            new Plan.Failure(r, "no method " + ref + " in " + dotted(name) + " or its supertypes"));
      } else if (JdkTypes.isJdkInternalByPrefix(declaredIn)
          && (info.access() & Opcodes.ACC_INTERFACE) == 0) {
        // (an interface's implementations declare the bodies, woven as they load: a cache's map
        // view names put on its own map interface)
        failures.add(
            new Plan.Failure(
                r,
                ref.methodName()
                    + " is declared in "
                    + dotted(declaredIn)
                    + ", a JDK supertype of "
                    + dotted(name)
                    + ", whose bodies are never woven: budget"
                    + " the calls with in = the code that makes them"));
      }
    }
    // Bodies this class inherits from supertypes that are not themselves T (Ehcache's put is
    // EhcacheBase#put): woven there, deciding for receivers of T only.
    for (ClassInfo d : graph.applicationSupertypes(loader, name)) {
      if (JdkTypes.isAgent(dotted(d.name())) || graph.isSubtype(loader, d.name(), r.type())) {
        continue;
      }
      ClassInfo.Method dm = MethodMatcher.matching(d, ref);
      if (dm == null || !dm.hasBody() || dm.isStatic()) {
        continue;
      }
      if (pendingKeys.add(d.name() + " " + r.id())) {
        int point = binder.bindSupertypeBody(r, r.type());
        pending
            .computeIfAbsent(d.name(), k -> new java.util.concurrent.CopyOnWriteArrayList<>())
            .add(new Pending(r, point, r.type()));
        retransform.accept(loader, d.name()); // in case it has loaded already
      }
    }
  }

  /** Keeps one admitting insert per method: two would each book the same value. */
  private static List<Plan.BodyInsert> onePerMethod(
      List<Plan.BodyInsert> body, List<Plan.Failure> failures) {
    List<Plan.BodyInsert> kept = new ArrayList<>();
    for (Plan.BodyInsert b : body) {
      Plan.BodyInsert clash = null;
      for (Plan.BodyInsert k : kept) {
        if (k.method().equals(b.method()) && k.rule().role() == b.rule().role()
            || k.method().equals(b.method())
                && k.rule().role().admits()
                && b.rule().role().admits()) {
          clash = k;
          break;
        }
      }
      if (clash == null) {
        kept.add(b);
      } else {
        failures.add(
            new Plan.Failure(
                b.rule(),
                b.method().name()
                    + b.method().descriptor()
                    + " is budgeted by site '"
                    + clash.rule().site()
                    + "' already; one site per method"));
      }
    }
    return kept;
  }

  /** Returns the nearest supertype of {@code name} that declares {@code ref}, or null. */
  private String declaredInSupertype(ClassLoader loader, String name, MethodRef ref) {
    for (ClassInfo d : graph.supertypes(loader, name)) {
      if (MethodMatcher.matching(d, ref) != null) {
        return d.name();
      }
    }
    return null;
  }

  private String where(ClassLoader loader, ClassInfo info, MethodRef ref) {
    String in = declaredInSupertype(loader, info.name(), ref);
    return in == null
        ? ""
        : " (it is declared in "
            + dotted(in)
            + ", a supertype of "
            + dotted(info.name())
            + ": name in = "
            + dotted(in)
            + "#"
            + ref.methodName()
            + ")";
  }

  static String dotted(String internalName) {
    return internalName.replace('/', '.');
  }
}
