package org.flodl.budget.agent.suggest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.analysis.Frame;
import org.objectweb.asm.tree.analysis.SourceValue;

/**
 * The cache-admit sites of one class: each value it stores into a JDK or Scala map or collection
 * held in one of its fields (a Scala put-style call only where its result is dropped), with the
 * removal the class makes from that field as the release, unless the field holds an application map
 * that evicts by itself or the value is a constant.
 */
final class CacheStores {
  private final ScannedClass cls;

  /** Gives the bytes of the application's other classes by internal name, null when not read. */
  private final Function<String, byte[]> classes;

  private final List<Store> stores = new ArrayList<>();

  /** Per field: the removals the class makes from it ({@code Map.remove} and the like). */
  private final Map<String, List<FieldCall>> removals = new LinkedHashMap<>();

  /** The fields the class reads back by key or element ({@code get}, {@code contains}, ...). */
  private final Set<String> readBack = new HashSet<>();

  /** Per field: the class of the object it is set to, where the bytecode shows a {@code new}. */
  private final Map<String, String> fieldNew = new LinkedHashMap<>();

  /** A value stored into a field's map or collection. */
  private record Store(
      MethodNode m,
      MethodInsnNode call,
      String field,
      String fieldType,
      String value,
      Origin valueSource,
      String line) {}

  CacheStores(ScannedClass cls, Function<String, byte[]> classes) {
    this.cls = cls;
    this.classes = classes;
  }

  /** Notes that {@code field} is set to a new object of class {@code type} (internal name). */
  void fieldSetToNew(String field, String type) {
    fieldNew.putIfAbsent(field, type);
  }

  /**
   * Notes {@code call}, an instance call in {@code m} on a JDK or Scala map or collection, where it
   * stores into or removes from one of the class's fields; {@code frame} is the frame before it.
   */
  void call(
      MethodNode m, Frame<SourceValue>[] frames, Frame<SourceValue> frame, MethodInsnNode call) {
    int args = Type.getArgumentTypes(call.desc).length;
    String field = cls.fieldOf(Origin.of(m, frames, Origin.top(frame, args)));
    if (field == null) {
      return;
    }
    boolean scala = CollectionCalls.isScala(call.owner);
    boolean map = CollectionCalls.isMap(call.owner);
    String value =
        scala
            ? CollectionCalls.scalaStore(call, map, args)
            : CollectionCalls.jdkStore(call, map, CollectionCalls.isCollection(call.owner));
    if (CollectionCalls.readsBack(call, scala)) {
      readBack.add(field);
    }
    if (value == null) {
      if (CollectionCalls.removes(call, scala)) {
        removals
            .computeIfAbsent(field, k -> new ArrayList<>())
            .add(new FieldCall(m, call, cls.line(call)));
      }
      return;
    }
    if (scala && !value.equals("return") && !CollectionCalls.resultDiscarded(call)) {
      // A declined put-style call is skipped and returns null: for a Scala put (an Option)
      // or += (the collection) whose result the code goes on to use, that null would reach
      // the application. Such a call is no candidate; one whose result is dropped is.
      return;
    }
    Origin v =
        value.equals("return")
            ? Origin.UNKNOWN
            : Origin.of(m, frames, Origin.top(frame, args - 1 - Integer.parseInt(value)));
    stores.add(new Store(m, call, field, cls.fieldType(field), value, v, cls.line(call)));
  }

  /**
   * Adds the cache-admit candidates of the stores noted to {@code out}, in the order found. A cache
   * grows with the work: a store in a static initializer (a registry filled once) or a constructor
   * (an object's own parts) is none. A map the class never reads back by key ({@code get}, {@code
   * containsKey}, {@code computeIfAbsent}, ...) may be one that others read, or a record of results
   * handed on: its store is {@code [likely]}, never {@code [sure]}.
   */
  void candidates(List<Candidate> out) {
    for (Store s : stores) {
      if (s.valueSource.kind().equals("constant") || boundsItself(fieldNew.get(s.field))) {
        continue; // a constant is no sample; a map that evicts by itself is bounded already
      }
      if (s.m.name.equals("<clinit>") || s.m.name.equals("<init>")) {
        continue;
      }
      boolean scala = s.call.owner.startsWith("scala/");
      List<FieldCall> removed = removals.getOrDefault(s.field, List.of());
      FieldCall remove = null;
      FieldCall clear = null;
      for (FieldCall u : removed) {
        if (!scala
            && u.call().name.equals("remove")
            && Type.getArgumentTypes(u.call().desc).length == 1
            && remove == null) {
          remove = u;
        } else if (clear == null && (u.call().name.equals("clear") || scala)) {
          clear = u; // Scala's removals return an Option or the collection, never the value
        }
      }
      List<String> why = new ArrayList<>();
      String kindOf =
          scala
              ? SiteFinder.simpleName(s.call.owner)
              : CollectionCalls.isJdkMap(s.call.owner) ? "Map" : "Collection";
      String stored =
          s.value.equals("return")
              ? "the value its mapping function computes"
              : s.valueSource.text();
      why.add(
          cls.signature(s.m)
              + " stores "
              + stored
              + " into the field '"
              + s.field
              + "' ("
              + s.fieldType
              + ") with "
              + kindOf
              + "."
              + s.call.name
              + ScannedClass.where(s.line)
              + ".");
      if (remove != null) {
        why.add(
            cls.signature(remove.m())
                + " removes from it with "
                + kindOf
                + ".remove"
                + ScannedClass.where(remove.line())
                + ": the release.");
      } else if (clear != null) {
        why.add(
            scala
                ? cls.signature(clear.m())
                    + " removes from it ("
                    + clear.call().name
                    + ScannedClass.where(clear.line())
                    + "): what it drops is released as it is "
                    + "collected (a Scala removal returns an Option or the collection, not the value to "
                    + "hand back)."
                : "Only "
                    + cls.signature(clear.m())
                    + " empties it (clear"
                    + ScannedClass.where(clear.line())
                    + "): what it drops is released as it is collected.");
      } else {
        why.add("Nothing in this class removes from it: it only grows (unbounded).");
      }
      boolean map = CollectionCalls.isMap(s.call.owner);
      if (map && !readBack.contains(s.field)) {
        why.add("This class never reads it back by key: a record others read, or a cache?");
      }
      // A map read back by key whose stored value's origin the bytecode shows is the common
      // sample cache; a collection appended to, or a value of unknown origin, may be other.
      int sure =
          map && !s.valueSource.kind().equals("unknown") && readBack.contains(s.field) ? 0 : 1;
      String removeRef = remove == null ? null : SiteFinder.ref(remove.call());
      String decline =
          s.value.equals("return")
              ? SiteFinder.javaName(s.call.owner) + "#remove(java.lang.Object)"
              : null;
      out.add(
          new Candidate(
              "cache-admit",
              cls.siteName(s.field),
              cls.ref(s.m),
              SiteFinder.ref(s.call),
              s.value,
              removeRef,
              decline,
              -1,
              null,
              sure,
              why,
              cls.node.name,
              s.m.name,
              s.m.desc));
    }
  }

  /**
   * Returns whether class {@code type} (internal name) is an application subclass of a map that
   * evicts by itself: it overrides {@code LinkedHashMap.removeEldestEntry}.
   */
  private boolean boundsItself(String type) {
    byte[] b = type == null || type.startsWith("java/") ? null : classes.apply(type);
    if (b == null) {
      return false;
    }
    ClassNode c = new ClassNode();
    new ClassReader(b).accept(c, ClassReader.SKIP_CODE);
    for (MethodNode m : c.methods) {
      if (m.name.equals("removeEldestEntry")) {
        return true;
      }
    }
    return false;
  }
}
