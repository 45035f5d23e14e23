package org.flodl.budget.agent.suggest;

import java.util.Set;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;

/**
 * What a call on a JDK or Scala collection does, as far as the site finder cares: the owners it
 * knows (the JDK's maps and collections, Scala's mutable maps, sequences and sets, the JDK's
 * bounded queues and semaphore), which argument a storing call stores, which calls remove and which
 * take. Kotlin's collections are the JDK's.
 */
final class CollectionCalls {
  private static final Set<String> MAPS =
      Set.of(
          "java/util/Map",
          "java/util/HashMap",
          "java/util/LinkedHashMap",
          "java/util/TreeMap",
          "java/util/SortedMap",
          "java/util/NavigableMap",
          "java/util/Hashtable",
          "java/util/IdentityHashMap",
          "java/util/WeakHashMap",
          "java/util/concurrent/ConcurrentMap",
          "java/util/concurrent/ConcurrentHashMap",
          "java/util/concurrent/ConcurrentSkipListMap",
          "java/util/concurrent/ConcurrentNavigableMap");
  private static final Set<String> COLLECTIONS =
      Set.of(
          "java/util/Collection",
          "java/util/List",
          "java/util/ArrayList",
          "java/util/LinkedList",
          "java/util/Set",
          "java/util/HashSet",
          "java/util/LinkedHashSet",
          "java/util/TreeSet",
          "java/util/SortedSet",
          "java/util/NavigableSet",
          "java/util/Vector",
          "java/util/concurrent/CopyOnWriteArrayList");

  /** Scala's mutable maps, whose calls have their own shapes (see {@link #scalaStore}). */
  private static final Set<String> SCALA_MAPS =
      Set.of(
          "scala/collection/mutable/HashMap",
          "scala/collection/mutable/LinkedHashMap",
          "scala/collection/mutable/Map",
          "scala/collection/mutable/MapOps",
          "scala/collection/mutable/TreeMap",
          "scala/collection/mutable/AnyRefMap",
          "scala/collection/mutable/LongMap",
          "scala/collection/concurrent/TrieMap",
          "scala/collection/concurrent/Map");

  /** Scala's mutable sequences and sets. */
  private static final Set<String> SCALA_COLLECTIONS =
      Set.of(
          "scala/collection/mutable/ArrayBuffer", "scala/collection/mutable/ListBuffer",
          "scala/collection/mutable/Buffer", "scala/collection/mutable/ArrayDeque",
          "scala/collection/mutable/Set", "scala/collection/mutable/HashSet",
          "scala/collection/mutable/LinkedHashSet", "scala/collection/mutable/Growable");

  private static final Set<String> QUEUES =
      Set.of(
          "java/util/concurrent/ArrayBlockingQueue",
          "java/util/concurrent/LinkedBlockingQueue",
          "java/util/concurrent/LinkedBlockingDeque",
          "java/util/concurrent/Semaphore");
  private static final Set<String> TAKES =
      Set.of("take", "poll", "remove", "takeFirst", "pollFirst", "acquire");

  /** Scala's removals: {@code remove}, {@code subtractOne} and {@code -=}, {@code clear}. */
  private static final Set<String> SCALA_REMOVALS =
      Set.of("remove", "subtractOne", "$minus$eq", "clear", "filterInPlace");

  private static final String OBJECT = "Ljava/lang/Object;";

  private CollectionCalls() {}

  /** Returns whether {@code owner} (internal name) is a JDK map. */
  static boolean isJdkMap(String owner) {
    return MAPS.contains(owner);
  }

  /** Returns whether {@code owner} is a JDK or Scala map. */
  static boolean isMap(String owner) {
    return MAPS.contains(owner) || SCALA_MAPS.contains(owner);
  }

  /** Returns whether {@code owner} is a JDK or Scala collection that is no map. */
  static boolean isCollection(String owner) {
    return COLLECTIONS.contains(owner) || SCALA_COLLECTIONS.contains(owner);
  }

  /** Returns whether {@code owner} is one of Scala's mutable maps or collections. */
  static boolean isScala(String owner) {
    return SCALA_MAPS.contains(owner) || SCALA_COLLECTIONS.contains(owner);
  }

  /** Returns whether {@code type} is a JDK bounded queue or semaphore. */
  static boolean isQueue(String type) {
    return QUEUES.contains(type);
  }

  /**
   * Returns whether {@code call} may take an element from a JDK queue and hand it back: an instance
   * call named like a take that returns a reference.
   */
  static boolean takes(MethodInsnNode call) {
    return call.getOpcode() != Opcodes.INVOKESTATIC
        && TAKES.contains(call.name)
        && Type.getReturnType(call.desc).getSort() >= Type.ARRAY
        && call.owner.startsWith("java/util/");
  }

  /**
   * Returns what a call on a JDK map or collection stores ({@code "1"}: its second argument, {@code
   * "0"}: its first, {@code "return"}: the value it returns), or null when it stores none.
   */
  static String jdkStore(MethodInsnNode call, boolean map, boolean collection) {
    if (map
        && (call.name.equals("put") || call.name.equals("putIfAbsent"))
        && call.desc.equals("(" + OBJECT + OBJECT + ")" + OBJECT)) {
      return "1";
    }
    if (map
        && call.name.equals("computeIfAbsent")
        && call.desc.equals("(" + OBJECT + "Ljava/util/function/Function;)" + OBJECT)) {
      return "return";
    }
    if (collection && call.name.equals("add") && call.desc.equals("(" + OBJECT + ")Z")) {
      return "0";
    }
    return null;
  }

  /**
   * Returns what a call on a Scala mutable collection stores ({@code "1"}: its second argument,
   * {@code "0"}: its first, {@code "return"}: the value it returns), or null when it stores none.
   */
  static String scalaStore(MethodInsnNode call, boolean map, int args) {
    String n = call.name;
    if (map && args == 2 && (n.equals("put") || n.equals("update"))) {
      return "1";
    }
    if (map
        && args == 2
        && n.equals("getOrElseUpdate")
        && call.desc.startsWith("(" + OBJECT + "Lscala/Function0;)")) {
      return "return";
    }
    if (args == 1
        && (n.equals("addOne")
            || n.equals("$plus$eq")
            || n.equals("add")
            || n.equals("append")
            || n.equals("prepend"))) {
      return "0"; // on a map, the key-value pair: priced whole, the value with it
    }
    return null;
  }

  /** Returns whether {@code call}, on a JDK or (when {@code scala}) Scala collection, removes. */
  static boolean removes(MethodInsnNode call, boolean scala) {
    return scala
        ? SCALA_REMOVALS.contains(call.name)
        : call.name.equals("remove") || call.name.equals("clear");
  }

  /** The calls that read a map or collection back by key or element, or store and return. */
  private static final Set<String> READS =
      Set.of(
          "get",
          "getOrDefault",
          "containsKey",
          "contains",
          "computeIfAbsent",
          "computeIfPresent",
          "compute",
          "merge",
          "putIfAbsent",
          "apply",
          "getOrElse",
          "getOrElseUpdate",
          "peek",
          "poll",
          "pollFirst",
          "pollLast",
          "getFirst",
          "getLast",
          "lift");

  /**
   * Returns whether {@code call} reads its map or collection back by key or element (a lookup, a
   * store that returns what is there, a queue's head), as a cache's reader does.
   */
  static boolean readsBack(MethodInsnNode call, boolean scala) {
    return READS.contains(call.name) && (scala || !call.owner.startsWith("scala/"));
  }

  /** Returns whether {@code call} returns nothing, or a value its next instruction drops. */
  static boolean resultDiscarded(MethodInsnNode call) {
    if (Type.getReturnType(call.desc) == Type.VOID_TYPE) {
      return true;
    }
    AbstractInsnNode next = call.getNext();
    while (next != null && next.getOpcode() < 0) {
      next = next.getNext(); // labels, line numbers, frames
    }
    return next != null && (next.getOpcode() == Opcodes.POP || next.getOpcode() == Opcodes.POP2);
  }
}
