package org.flodl.budget.agent.weave;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import org.flodl.budget.agent.config.JdkTypes;

/**
 * The type hierarchy as class files tell it, per class loader: a class's supertypes are read from
 * the class files its loader can find ({@code getResourceAsStream}, the same delegation as loading)
 * or from the bytes the transformer is handed, never by loading a class. Each class is read once
 * per loader and each subtype question answered once. A class whose file cannot be found (one
 * generated at run time) has no known supertypes: nothing is woven on its account.
 */
final class TypeGraph {
  /** Deeper hierarchies than this are not followed (a guard against malformed files). */
  private static final int MAX_DEPTH = 64;

  private final Set<String> methodNames;
  private final Map<ClassLoader, Map<String, Node>> byLoader = new WeakHashMap<>();
  private final Map<String, Node> jdk = new ConcurrentHashMap<>();

  /** Returns a graph keeping, for each class, its methods named in {@code methodNames}. */
  TypeGraph(Set<String> methodNames) {
    this.methodNames = Set.copyOf(methodNames);
  }

  /** One class as a loader sees it, and the answers about it given so far. */
  static final class Node {
    final ClassInfo info;

    /** Whether the transformer saw this class load (else it was read from its file). */
    volatile boolean defined;

    final Map<String, Boolean> subtypeOf = new ConcurrentHashMap<>();

    Node(ClassInfo info) {
      this.info = info;
    }
  }

  private static final Node UNKNOWN = new Node(null);

  /** Returns the class the transformer is defining in {@code loader}, now known as loaded. */
  ClassInfo define(ClassLoader loader, byte[] bytes) {
    ClassInfo info = ClassInfo.read(bytes, methodNames);
    Node node = new Node(info);
    node.defined = true;
    Map<String, Node> map = map(loader, info.name());
    Node old = map.get(info.name());
    if (old != null && old.info != null) {
      old.defined = true; // keep the answers already given about it
      return old.info;
    }
    map.put(info.name(), node);
    return info;
  }

  /** Returns whether {@code name} has been seen loading in {@code loader}. */
  boolean defined(ClassLoader loader, String name) {
    Node n = map(loader, name).get(name);
    return n != null && n.defined;
  }

  /** Returns what {@code loader} knows of {@code name}, or null when no class file is found. */
  ClassInfo info(ClassLoader loader, String name) {
    return node(loader, name, 0).info;
  }

  /**
   * Returns whether {@code name} is {@code target} or one of its subtypes, seen from {@code
   * loader}.
   */
  boolean isSubtype(ClassLoader loader, String name, String target) {
    return isSubtype(loader, name, target, 0);
  }

  private boolean isSubtype(ClassLoader loader, String name, String target, int depth) {
    if (name.equals(target)) {
      return true;
    }
    if (depth > MAX_DEPTH || name.startsWith("[")) {
      return false;
    }
    // A JDK type extends JDK types only: it is never a subtype of an application's type.
    if (JdkTypes.isJdkInternalByPrefix(name) && !JdkTypes.isJdkInternalByPrefix(target)) {
      return false;
    }
    Node node = node(loader, name, depth);
    if (node.info == null) {
      return false;
    }
    Boolean known = node.subtypeOf.get(target);
    if (known != null) {
      return known;
    }
    boolean result = false;
    for (String s : node.info.supertypes()) {
      if (isSubtype(loader, s, target, depth + 1)) {
        result = true;
        break;
      }
    }
    node.subtypeOf.put(target, result);
    return result;
  }

  /**
   * Returns every supertype of {@code name} that a class file describes (not {@code name} itself),
   * nearest first: superclasses, then interfaces breadth-first.
   */
  List<ClassInfo> supertypes(ClassLoader loader, String name) {
    return supertypes(loader, name, true);
  }

  /**
   * {@link #supertypes(ClassLoader, String)} without the JDK's (nor theirs, all the JDK's): no JDK
   * class file is read, which costs the first weave the JDK image's reader.
   */
  List<ClassInfo> applicationSupertypes(ClassLoader loader, String name) {
    return supertypes(loader, name, false);
  }

  private List<ClassInfo> supertypes(ClassLoader loader, String name, boolean jdk) {
    List<ClassInfo> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    ClassInfo self = info(loader, name);
    if (self == null) {
      return out;
    }
    addAll(todo, self.supertypes());
    while (!todo.isEmpty() && seen.size() < 4 * MAX_DEPTH) {
      String s = todo.removeFirst();
      if (!seen.add(s) || !jdk && JdkTypes.isJdkInternalByPrefix(s)) {
        continue;
      }
      ClassInfo i = info(loader, s);
      if (i != null) {
        out.add(i);
        addAll(todo, i.supertypes());
      }
    }
    return out;
  }

  // A loop, not ArrayDeque.addAll: that takes a method reference, the weave's first lambda.
  private static void addAll(Deque<String> todo, List<String> names) {
    for (String n : names) {
      todo.addLast(n);
    }
  }

  private Node node(ClassLoader loader, String name, int depth) {
    Map<String, Node> map = map(loader, name);
    Node n = map.get(name);
    if (n != null) {
      return n;
    }
    ClassInfo info = readFile(loader, name);
    n = info == null ? UNKNOWN : new Node(info);
    Node raced = map.putIfAbsent(name, n);
    return raced != null ? raced : n;
  }

  private Map<String, Node> map(ClassLoader loader, String name) {
    if (loader == null || JdkTypes.isJdkInternalByPrefix(name)) {
      return jdk;
    }
    synchronized (byLoader) {
      Map<String, Node> m = byLoader.get(loader);
      if (m == null) {
        m = new ConcurrentHashMap<>();
        byLoader.put(loader, m);
      }
      return m;
    }
  }

  private ClassInfo readFile(ClassLoader loader, String name) {
    String resource = name + ".class";
    ClassLoader l =
        loader == null || JdkTypes.isJdkInternalByPrefix(name)
            ? ClassLoader.getPlatformClassLoader()
            : loader;
    try (InputStream in = l.getResourceAsStream(resource)) {
      if (in == null) {
        return null;
      }
      return ClassInfo.read(in.readAllBytes(), methodNames);
    } catch (IOException | RuntimeException | LinkageError e) {
      return null;
    }
  }
}
