package org.flodl.budget.agent.djl;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.agent.gate.GateEngine;
import org.flodl.budget.agent.gate.Log;
import org.flodl.budget.agent.gate.Recorder;
import org.flodl.budget.events.InstrumentedEvent;

/**
 * The agent's built-in DJL site (site {@code djl}), on with {@code djl=on} and no sites file: a
 * name-checking transformer weaves {@code ai.djl.training.dataset.DataIterable} (its constructor
 * is the epoch boundary and the prefetch call site; its {@code fetch} prices batches), {@code
 * BulkDataIterable} (which overrides {@code fetch} without calling super) and, when one is first
 * constructed, any other subtype that overrides {@code fetch}. It notes DJL's CUDA bindings
 * loading, for the VRAM probe. Each class woven, skipped or failed is one {@code
 * flodl.agent.Instrumented} event. The agent's Bootstrap makes the one call, {@link #install}.
 */
public final class Djl {
  static final String DATA_ITERABLE = "ai/djl/training/dataset/DataIterable";
  static final String BULK_DATA_ITERABLE = "ai/djl/training/dataset/BulkDataIterable";

  private static volatile Instrumentation instrumentation;
  private static volatile Transformer transformer;

  private Djl() {}

  /**
   * Installs the DJL site: the gate reaches {@code engine}; {@code vramProbe} {@code auto} lets
   * DJL's own CUDA bindings answer for a GPU; {@code onWoven} runs at each woven class (the
   * engine's start, idempotent). Retransforms DJL classes already loaded (attach). Never throws.
   */
  public static void install(Instrumentation inst, GateEngine engine, String vramProbe,
      Runnable onWoven) {
    try {
      if (transformer != null) {
        return;
      }
      instrumentation = inst;
      DjlGate.install(engine, vramProbe == null || vramProbe.trim().equalsIgnoreCase("auto"));
      Transformer t = new Transformer(onWoven);
      transformer = t;
      inst.addTransformer(t, true);
      List<Class<?>> loaded = new ArrayList<>();
      for (Class<?> c : inst.getAllLoadedClasses()) {
        String n = c.getName().replace('.', '/');
        if (n.equals(DjlCuda.CUDA_UTILS)) {
          DjlCuda.seen(c.getClassLoader());
        } else if (t.targets(n) && inst.isModifiableClass(c)) {
          loaded.add(c);
        }
      }
      for (Class<?> c : loaded) {
        try {
          inst.retransformClasses(c);
        } catch (Throwable e) {
          Log.warn("DJL: cannot retransform " + c.getName() + " (" + e + "); it stays as loaded");
        }
      }
    } catch (Throwable e) {
      Log.warn("DJL: the built-in DJL site could not be installed (" + e + "); DJL runs as is");
    }
  }

  private static final ClassValue<Boolean> CHECKED = new ClassValue<>() {
    @Override
    protected Boolean computeValue(Class<?> c) {
      weaveSubtypes(c);
      return Boolean.TRUE;
    }
  };

  /** Weaves {@code fetch} of {@code c} and its superclasses up to DataIterable, once per class. */
  static void checkSubtype(Class<?> c) {
    CHECKED.get(c);
  }

  private static void weaveSubtypes(Class<?> c) {
    Transformer t = transformer;
    Instrumentation inst = instrumentation;
    if (t == null || inst == null) {
      return;
    }
    for (Class<?> k = c; k != null; k = k.getSuperclass()) {
      String n = k.getName().replace('.', '/');
      if (n.equals(DATA_ITERABLE) || n.equals("java/lang/Object")) {
        return;
      }
      if (t.targets(n) || !declaresFetch(k)) {
        continue;
      }
      t.subtypes.add(n);
      try {
        if (inst.isModifiableClass(k)) {
          inst.retransformClasses(k);
        }
      } catch (Throwable e) {
        Log.warn("DJL: cannot weave fetch of " + k.getName() + " (" + e
            + "); its batches are not priced");
      }
    }
  }

  private static boolean declaresFetch(Class<?> k) {
    for (Method m : k.getDeclaredMethods()) {
      Class<?>[] p = m.getParameterTypes();
      if (m.getName().equals("fetch") && p.length == 2 && p[0] == List.class && p[1] == int.class
          && m.getReturnType().getName().equals(DjlWeaver.BATCH)) {
        return true;
      }
    }
    return false;
  }

  /** The DJL transformer: one string compare per class the JVM loads, plus the subtypes found. */
  static final class Transformer implements ClassFileTransformer {
    final Set<String> subtypes = ConcurrentHashMap.newKeySet();
    private final Runnable onWoven;

    Transformer(Runnable onWoven) {
      this.onWoven = onWoven;
    }

    boolean targets(String internalName) {
      return internalName.equals(DATA_ITERABLE) || internalName.equals(BULK_DATA_ITERABLE)
          || subtypes.contains(internalName);
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
        ProtectionDomain domain, byte[] bytes) {
      if (className == null || !className.startsWith("ai/djl/") && subtypes.isEmpty()) {
        return null;
      }
      try {
        if (className.equals(DjlCuda.CUDA_UTILS)) {
          DjlCuda.seen(loader);
          return null;
        }
        if (!targets(className)) {
          return null;
        }
        boolean epoch = className.equals(DATA_ITERABLE);
        String binary = className.replace('/', '.');
        DjlWeaver.Result r = DjlWeaver.weave(loader, binary, bytes, epoch, true);
        report(binary, r);
        return r.bytes();
      } catch (Throwable t) {
        Log.warn("DJL: " + className + " loads unwoven (" + t + ")");
        return null;
      }
    }

    private void report(String binary, DjlWeaver.Result r) {
      if (Recorder.on()) {
        InstrumentedEvent.emit(binary, DjlGate.SITE, r.outcome(), r.message());
      }
      if ("WOVEN".equals(r.outcome())) {
        Log.info("DJL: wove " + binary + ": " + r.message());
        if (onWoven != null) {
          onWoven.run();
        }
      } else {
        Log.warn("DJL: " + r.message());
      }
    }
  }
}
