package org.flodl.budget.agent.weave;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The agent's one class-file transformer: a hash lookup of the internal class name against the
 * site classes, so the classes a JVM loads cost one {@code HashMap.get} each and the weaver (and
 * its ASM) is first touched when a site's class actually loads ({@link Weaver}). A class is woven once per
 * class loader that defines it (a child-first or isolated loader gets its own copy woven).
 * Nothing it meets escapes: a failure leaves the class as it was and is reported.
 */
public final class SiteTransformer implements ClassFileTransformer {
  private final Map<String, List<WeavePoint>> pointsByClass;
  private final WeaveListener listener;
  private final Set<String> seen = ConcurrentHashMap.newKeySet();

  /** Returns a transformer for {@code points}, reporting each outcome to {@code listener}. */
  public SiteTransformer(Collection<WeavePoint> points, WeaveListener listener) {
    Map<String, List<WeavePoint>> byClass = new HashMap<>();
    for (WeavePoint p : points) {
      List<WeavePoint> list = byClass.get(p.internalClassName());
      if (list == null) {
        list = new ArrayList<>();
        byClass.put(p.internalClassName(), list);
      }
      list.add(p);
    }
    Map<String, List<WeavePoint>> frozen = new HashMap<>();
    for (Map.Entry<String, List<WeavePoint>> e : byClass.entrySet()) {
      frozen.put(e.getKey(), List.copyOf(e.getValue()));
    }
    this.pointsByClass = Map.copyOf(frozen);
    this.listener = listener;
  }

  /** Returns whether {@code internalName} names a class with sites. */
  public boolean targets(String internalName) {
    return pointsByClass.containsKey(internalName);
  }

  /** Returns the binary names of the classes with sites. */
  public Set<String> classNames() {
    Set<String> names = new java.util.HashSet<>();
    for (String n : pointsByClass.keySet()) {
      names.add(n.replace('/', '.'));
    }
    return names;
  }

  /** Returns whether a class of that internal name has been offered to the weaver. */
  public boolean seen(String internalName) {
    return seen.contains(internalName);
  }

  @Override
  public byte[] transform(
      ClassLoader loader,
      String className,
      Class<?> classBeingRedefined,
      ProtectionDomain protectionDomain,
      byte[] classfileBuffer) {
    if (className == null) {
      return null;
    }
    List<WeavePoint> points = pointsByClass.get(className);
    if (points == null) {
      return null;
    }
    seen.add(className);
    try {
      return Weaver.weave(className, classfileBuffer, points, listener);
    } catch (Throwable t) {
      for (WeavePoint p : points) {
        try {
          listener.failed(className.replace('/', '.'), p, String.valueOf(t));
        } catch (Throwable ignored) {
          // The listener reports; it must not be the reason a class fails to load.
        }
      }
      return null;
    }
  }
}
