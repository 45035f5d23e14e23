package org.flodl.budget.agent.weave;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.flodl.budget.agent.config.JdkTypes;

/**
 * The agent's one class-file transformer. Every class an application loader defines is offered to
 * the {@link Planner} (its supertypes read from class files: nothing is loaded for it); a class
 * with something to weave goes to the {@link Weaver}. What the boot and platform loaders define
 * (the JDK) and the agent's own classes are never touched. A class being loaded while this thread
 * is already inside the transformer (a loader reading a class file for the planner) is left as it
 * is. Nothing it meets escapes: a failure leaves the class as it was and is reported.
 */
public final class SiteTransformer implements ClassFileTransformer {
  private static final ClassLoader PLATFORM = ClassLoader.getPlatformClassLoader();
  private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();

  private final Planner planner;
  private final TypeGraph graph;
  private final WeaveListener listener;
  private final Map<String, Consumer<ClassLoader>> watched;
  private final Set<Integer> wovenRules = ConcurrentHashMap.newKeySet();
  private final LinkedBlockingQueue<String> retransforms = new LinkedBlockingQueue<>();
  private volatile Instrumentation inst;
  private volatile Thread retransformer;

  /**
   * Returns a transformer applying {@code rules}, reporting to {@code listener}; {@code watched}
   * maps internal class names to what must hear of their loading (DJL's CUDA bindings).
   */
  public SiteTransformer(
      List<Rule> rules,
      PointBinder binder,
      WeaveListener listener,
      Map<String, Consumer<ClassLoader>> watched) {
    this.graph = new TypeGraph(Planner.methodNames(rules));
    this.listener = listener;
    this.watched = Map.copyOf(watched);
    this.planner =
        new Planner(
            rules,
            graph,
            binder,
            new BiConsumer<ClassLoader, String>() {
              @Override
              public void accept(ClassLoader loader, String name) {
                requestRetransform(name);
              }
            });
  }

  /** Lets the transformer retransform classes that loaded before a point for them was found. */
  public void instrumentation(Instrumentation instrumentation) {
    this.inst = instrumentation;
  }

  /** Returns the ids of the rules that have woven something so far. */
  public Set<Integer> wovenRules() {
    return Set.copyOf(wovenRules);
  }

  /**
   * Returns whether {@code c} (already loaded) may need weaving: its loader is an application's and
   * it is not the agent's. Attaching retransforms these.
   */
  public boolean candidate(Class<?> c) {
    ClassLoader l = c.getClassLoader();
    return l != null
        && l != PLATFORM
        && !c.isArray()
        && !c.isPrimitive()
        && !JdkTypes.isAgent(c.getName())
        && planner.mayApply(c);
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (className == null
        || loader == null
        || loader == PLATFORM
        || JdkTypes.isAgentInternal(className)) {
      return null;
    }
    Consumer<ClassLoader> watcher = watched.get(className);
    if (watcher != null) {
      try {
        watcher.accept(loader);
      } catch (Throwable ignored) {
        // a watcher only takes notes
      }
    }
    if (!planner.hasRules() || BUSY.get() != null) {
      return null;
    }
    BUSY.set(Boolean.TRUE);
    try {
      Plan plan = planner.plan(loader, className, classfileBuffer);
      if (plan == null) {
        return null;
      }
      Weaver.Result r =
          Weaver.weave(
              classfileBuffer,
              plan,
              new Weaver.Owners() {
                @Override
                public boolean isSubtype(String owner, String type) {
                  return graph.isSubtype(loader, owner, type);
                }
              });
      report(className, loader, r);
      return r.bytes();
    } catch (Throwable t) {
      try {
        listener.failed(
            className.replace('/', '.'),
            loaderName(loader),
            "(any)",
            "the transformer failed (" + t + "); the class loads as written",
            false);
      } catch (Throwable ignored) {
        // the listener reports; it must not be the reason a class fails to load
      }
      return null;
    } finally {
      BUSY.remove();
    }
  }

  private void report(String className, ClassLoader loader, Weaver.Result r) {
    String binary = className.replace('/', '.');
    String loaderName = loaderName(loader);
    if (r.bytes() != null) {
      wovenRules.addAll(r.wovenRules());
      for (Map.Entry<String, List<String>> e : r.woven().entrySet()) {
        listener.woven(binary, loaderName, e.getKey(), String.join(", ", e.getValue()));
      }
    }
    Map<String, Set<String>> failures = new LinkedHashMap<>();
    Map<String, Boolean> skipped = new LinkedHashMap<>();
    for (Plan.Failure f : r.failures()) {
      failures.computeIfAbsent(f.rule().site(), k -> new LinkedHashSet<>()).add(f.reason());
      skipped.merge(f.rule().site(), f.rule().preset(), Boolean::logicalAnd);
    }
    for (Map.Entry<String, Set<String>> e : failures.entrySet()) {
      listener.failed(
          binary, loaderName, e.getKey(), String.join("; ", e.getValue()), skipped.get(e.getKey()));
    }
  }

  private static String loaderName(ClassLoader loader) {
    return org.flodl.budget.agent.gate.Loaders.name(loader);
  }

  /**
   * Asks the retransform thread to re-weave the loaded classes named {@code internalName}, never
   * from inside a transformation.
   */
  private void requestRetransform(String internalName) {
    if (inst == null) {
      return;
    }
    retransforms.add(internalName.replace('/', '.'));
    if (retransformer == null) {
      startRetransformer();
    }
  }

  private synchronized void startRetransformer() {
    if (retransformer != null) {
      return;
    }
    Thread t =
        new Thread(
            new Runnable() {
              @Override
              public void run() {
                retransformLoop();
              }
            },
            "flodl-budget-retransform");
    t.setDaemon(true);
    retransformer = t;
    t.start();
  }

  private void retransformLoop() {
    while (true) {
      try {
        Set<String> names = new LinkedHashSet<>();
        names.add(retransforms.take());
        Thread.sleep(20); // the supertype is usually about to load: let it, then look
        retransforms.drainTo(names);
        List<Class<?>> loaded = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
          if (names.contains(c.getName()) && inst.isModifiableClass(c)) {
            loaded.add(c);
          }
        }
        for (Class<?> c : loaded) {
          try {
            inst.retransformClasses(c);
          } catch (Throwable e) {
            listener.failed(
                c.getName(),
                loaderName(c.getClassLoader()),
                "(any)",
                "cannot retransform (" + e + "); it stays as loaded",
                false);
          }
        }
      } catch (InterruptedException e) {
        return;
      } catch (Throwable e) {
        // keep serving requests
      }
    }
  }
}
